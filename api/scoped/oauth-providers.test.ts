import { describe, expect, it } from 'vitest';
import { CALLBACK_PATH, parseProviders } from './oauth-providers.ts';

const good = {
  service: 'github',
  display_name: 'GitHub',
  authorization_endpoint: 'https://github.com/login/oauth/authorize',
  token_endpoint: 'https://github.com/login/oauth/access_token',
  client_id: 'Iv1.abc',
  client_secret_file: '/etc/platform/oauth-client-secrets/github',
  scopes: ['repo', 'read:org', 'repo'],
  redirect_uri: `https://platform.example.com${CALLBACK_PATH}`,
};
const yamlOf = (providers: unknown[]): string => JSON.stringify({ providers });

describe('parseProviders', () => {
  it('reads providers, deduplicating scopes; display name defaults to the service', () => {
    const parsed = parseProviders(yamlOf([good, { ...good, service: 'jira', display_name: undefined }]));
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.providers[0]?.scopes).toEqual(['repo', 'read:org']);
    expect(parsed.providers[1]?.display_name).toBe('jira');
  });

  it('takes YAML, and an empty file as no providers', () => {
    const text = `providers:\n  - service: docs\n    authorization_endpoint: http://127.0.0.1:9/a\n    token_endpoint: http://localhost:9/t\n    client_id: c\n    redirect_uri: http://127.0.0.1:8000${CALLBACK_PATH}\n`;
    expect(parseProviders(text)).toMatchObject({ ok: true, providers: [{ service: 'docs', scopes: [] }] });
    expect(parseProviders('')).toEqual({ ok: true, providers: [] });
  });

  it('names every problem at once, by index', () => {
    const parsed = parseProviders(
      yamlOf([
        { ...good, token_endpoint: 'http://evil.example.com/token', extra: 1 },
        { ...good, service: 'bad service', redirect_uri: 'https://platform.example.com/elsewhere' },
        { ...good, service: 'github', client_id: '' },
      ]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      'providers[0]: unknown field extra',
      'providers[0]: token_endpoint: expected https (http only on a loopback host)',
      'providers[1]: service: expected a service name (letters, digits, . _ : / -)',
      `providers[1]: redirect_uri: expected <facade origin>${CALLBACK_PATH}`,
      'providers[2]: client_id: expected a string of 1 to 512 characters',
      'providers[2]: service github given twice',
    ]);
  });

  it('refuses what is not a provider list', () => {
    expect(parseProviders('providers: 3')).toEqual({
      ok: false,
      problems: ['expected an object with a list `providers`'],
    });
    expect(parseProviders('{')).toEqual({ ok: false, problems: ['not YAML or JSON'] });
    expect(
      parseProviders(yamlOf([{ ...good, authorization_endpoint: 'https://u:p@x.example/a' }])),
    ).toMatchObject({
      ok: false,
      problems: ['providers[0]: authorization_endpoint: no credentials or fragment allowed'],
    });
  });
});
