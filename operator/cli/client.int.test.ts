// The key a user command sends to the Verifier (integration: the API in
// process on the test control plane): the config file's, unless
// PLATFORM_API_KEY overrides it; a key the server refuses is one line, exit 3,
// with the hint to log in again. The key never appears in the line.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApi } from '../../test/integration/api-harness.ts';
import { eventually, useNamespace } from '../../test/integration/harness.ts';
import type { ApiClient } from './client.ts';
import { contextOf } from './context.ts';
import { writeConfig } from './config.ts';
import { CliError, EXIT } from './errors.ts';

const ns = useNamespace('cli-client');
const fx = useApi(ns);

/** A key minted for a user, once the API's key cache has it. */
async function userKey(): Promise<{ key: string; id: string }> {
  const r = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject: 'cli-user@example.com' },
  });
  expect(r.status).toBe(201);
  const minted = { key: String(r.body.key), id: String(r.body.id) };
  await eventually(
    async () =>
      (await fx.call('GET', '/v1/api-keys', { key: minted.key })).status === 200 ? true : undefined,
    'the key in the cache',
  );
  return minted;
}

/** The client a user command gets, with a config file written by hand. */
function clientWith(
  config: { server: string; api_key: string; key_id?: string },
  env: Record<string, string> = {},
): ApiClient {
  const dir = mkdtempSync(join(tmpdir(), 'cli-client-'));
  mkdirSync(join(dir, 'platform'));
  const path = join(dir, 'platform', 'config.yaml');
  writeConfig(path, config);
  return contextOf({}, { ...env, PLATFORM_CONFIG: path }).client();
}

async function refusal(client: ApiClient): Promise<CliError> {
  const err = await client.get('/v1/api-keys').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return err as CliError;
}

describe('the key the user commands send', () => {
  it('is the config file key, unless PLATFORM_API_KEY overrides it', async () => {
    const { key, id } = await userKey();
    const fromFile = clientWith({ server: fx.api.url, api_key: key, key_id: id });
    expect(fromFile.target.keySource).toBe('config');
    expect((await fromFile.get('/v1/api-keys')).status).toBe(200);

    const overridden = clientWith(
      { server: fx.api.url, api_key: key },
      { PLATFORM_API_KEY: 'pk_bogus-override' },
    );
    expect(overridden.target.keySource).toBe('env');
    const e = await refusal(overridden);
    expect(e.exitCode).toBe(EXIT.auth);
    expect(e.line()).toMatch(
      /^unauthorized \(401\): [^\n]+; PLATFORM_API_KEY was refused: set a valid key or unset it and run `platform login`$/,
    );
    expect(e.line()).not.toContain('pk_bogus-override');

    const rescued = clientWith({ server: fx.api.url, api_key: 'pk_stale' }, { PLATFORM_API_KEY: key });
    expect((await rescued.get('/v1/api-keys')).status).toBe(200);
  });

  it('gets the 401 with the hint to log in again when the stored key was revoked', async () => {
    const { key, id } = await userKey();
    expect((await fx.call('DELETE', `/v1/api-keys/${id}`, { key: fx.keys.org_admin })).status).toBe(204);
    await eventually(
      async () => ((await fx.call('GET', '/v1/api-keys', { key })).status === 401 ? true : undefined),
      'the key revoked',
    );
    const e = await refusal(clientWith({ server: fx.api.url, api_key: key, key_id: id }));
    expect(e.exitCode).toBe(EXIT.auth);
    expect(e.line()).toMatch(/^unauthorized \(401\): [^\n]+; run `platform login` again$/);
    expect(e.line()).not.toContain(key);
  });

  it('is asked for when there is none: exit 3 and how to log in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-client-none-'));
    const client = contextOf({ server: fx.api.url }, { PLATFORM_CONFIG: join(dir, 'absent.yaml') }).client();
    const e = await refusal(client);
    expect([e.exitCode, e.line()]).toEqual([
      EXIT.auth,
      'not logged in; run `platform login` or set PLATFORM_API_KEY',
    ]);
  });
});
