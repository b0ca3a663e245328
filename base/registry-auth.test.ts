import { describe, expect, it } from 'vitest';
import { ANNOTATION } from '../contract/kube.ts';
import { apiKeyFromSecret, endpointRequest } from './registry-auth.ts';

const CLIENT = { cert: 'CLIENT CERT', key: 'CLIENT KEY' };
const ACCEPT = { accept: 'application/json' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('requests to a registered endpoint', () => {
  it('sends nothing extra for auth none or no auth', () => {
    expect(endpointRequest('https://a.example/health', 'https://a.example', { type: 'none' }, {})).toEqual({
      headers: ACCEPT,
    });
    expect(
      endpointRequest('http://a.example/health', 'http://a.example', undefined, { apiKey: 'k' }),
    ).toEqual({
      headers: ACCEPT,
    });
  });

  it('sends an API key as a bearer header, only to the endpoint’s own origin', () => {
    const auth = { type: 'api_key' as const, secretRef: { name: 's', key: 'k' } };
    expect(
      endpointRequest('https://a.example/v/health', 'https://a.example/v', auth, { apiKey: 'sekrit' }),
    ).toEqual({
      headers: { ...ACCEPT, authorization: 'Bearer sekrit' },
    });
    // A vocabulary_url elsewhere (another host, port or scheme) never gets the key.
    for (const url of ['https://evil.example/vocabulary', 'https://a.example:8443/x', 'http://a.example/x'])
      expect(endpointRequest(url, 'https://a.example/v', auth, { apiKey: 'sekrit' })).toEqual({
        headers: ACCEPT,
      });
  });

  it('for mTLS over https trusts the registration’s certificate and presents the client certificate', () => {
    const auth = { type: 'mtls' as const, certPem: 'SERVER PEM' };
    expect(
      endpointRequest('https://a.example/health', 'https://a.example', auth, { client: CLIENT }),
    ).toEqual({
      headers: ACCEPT,
      tls: { ca: 'SERVER PEM', allowPartialTrustChain: true, cert: 'CLIENT CERT', key: 'CLIENT KEY' },
    });
    expect(endpointRequest('https://a.example/health', 'https://a.example', auth, {})).toEqual({
      headers: ACCEPT,
      tls: { ca: 'SERVER PEM', allowPartialTrustChain: true },
    });
    // Another origin: its certificate is still checked against the registration's, no client certificate.
    expect(endpointRequest('https://b.example/v', 'https://a.example', auth, { client: CLIENT })).toEqual({
      headers: ACCEPT,
      tls: { ca: 'SERVER PEM', allowPartialTrustChain: true },
    });
    // Plain http has no TLS to configure.
    expect(endpointRequest('http://a.example/health', 'http://a.example', auth, { client: CLIENT })).toEqual({
      headers: ACCEPT,
    });
  });
});

describe('the API key a registration’s secretRef names', () => {
  const ref = { name: 'ext-key', key: 'token' };
  const holder = { kind: 'auditor' as const, name: 'ext' };
  const secret = (annotation: string | undefined, data: Record<string, string>) => ({
    metadata: annotation === undefined ? {} : { annotations: { [ANNOTATION.credentialFor]: annotation } },
    data,
  });

  it('is read from a Secret that lists the registration', () => {
    expect(apiKeyFromSecret(secret('model/m, auditor/ext', { token: b64('sekrit\n') }), ref, holder)).toEqual(
      {
        key: 'sekrit',
      },
    );
  });

  it('is refused, naming why and never the key, when the Secret does not serve the registration', () => {
    const cases: [Parameters<typeof apiKeyFromSecret>[0], string][] = [
      [undefined, 'the API key Secret ext-key does not exist'],
      [
        secret(undefined, { token: b64('sekrit') }),
        `the Secret ext-key does not list auditor/ext in its ${ANNOTATION.credentialFor} annotation`,
      ],
      [
        secret('model/ext', { token: b64('sekrit') }),
        `the Secret ext-key does not list auditor/ext in its ${ANNOTATION.credentialFor} annotation`,
      ],
      [secret('auditor/ext', {}), 'the Secret ext-key has no key token'],
      [secret('auditor/ext', { token: b64('sek\nrit') }), 'the key token of Secret ext-key is not one line'],
    ];
    for (const [s, problem] of cases) {
      expect(apiKeyFromSecret(s, ref, holder)).toEqual({ problem });
      expect(problem).not.toContain('sek');
    }
  });
});
