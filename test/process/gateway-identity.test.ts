// The gateway's workload identity against a real loopback token endpoint: it
// reads the SVID the operator mounted, sends it as a jwt-spiffe client
// assertion, holds the token, and shows its expiry as a metric; a refused
// assertion leaves no token and is retried.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import { ASSERTION_JWT_SPIFFE } from '../../base/identity/token-client.ts';
import { WorkloadIdentity } from '../../gateway/identity.ts';
import { eventually } from '../integration/harness.ts';

const SVID = `e30.${Buffer.from(JSON.stringify({ sub: 'spiffe://platform.local/agent/team.bot', exp: 1_900_000_000 })).toString('base64url')}.sig`;
let server: Server;
let tokenUrl = '';
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      const ok =
        req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_assertion_type') === ASSERTION_JWT_SPIFFE &&
        form.get('client_assertion') === SVID;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { access_token: 'at-123', token_type: 'Bearer', expires_in: 600 }
            : { error: 'invalid_client', error_description: 'assertion refused' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const log = createLogger('test', { level: 'silent' });

describe('the gateway’s workload identity', () => {
  it('obtains a client_credentials token with its SVID and shows the expiry times as metrics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svid-'));
    writeFileSync(join(dir, 'svid.jwt'), `${SVID}\n`);
    const metrics = new Registry();
    const identity = new WorkloadIdentity({ svidDir: dir, tokenUrl, log, metrics });
    identity.start();
    try {
      expect(await eventually(() => identity.accessToken(), 'a token')).toBe('at-123');
      const text = await metrics.metrics();
      expect(text).toMatch(/platform_gateway_identity_svid_expiry_seconds 1900000000/);
      const expiry = Number(/platform_gateway_identity_token_expiry_seconds (\d+)/.exec(text)?.[1]);
      expect(expiry).toBeGreaterThan(Date.now() / 1000 + 500);
    } finally {
      identity.stop();
    }
  });

  it('holds no token while its assertion is refused, and keeps asking', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svid-'));
    writeFileSync(join(dir, 'svid.jwt'), 'e30.e30.forged');
    const before = seen.length;
    const identity = new WorkloadIdentity({ svidDir: dir, tokenUrl, log, metrics: new Registry() });
    identity.start();
    try {
      await eventually(() => (seen.length >= before + 2 ? true : undefined), 'a retry', 10_000);
      expect(identity.accessToken()).toBeUndefined();
    } finally {
      identity.stop();
    }
  });
});
