// The Gateway's side of auditor registration (issue 13, finding 1): a caller
// without the gateway's key cannot move a chain auditor, and a registration
// the Verifier refuses is answered as refused and not applied locally. The
// Verifier here is a real HTTP server answering as the API does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../base/log.ts';
import { AuditorRegistry, registrationTarget } from './registry.ts';

const REFUSAL = {
  detail: 'auditor ext is registered already; a gateway key cannot change its endpoint, auth',
  code: 'registration_locked',
};
let verifier: Server;
let verifierUrl = '';

beforeAll(async () => {
  verifier = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify(REFUSAL));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifierUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

const registry = (): AuditorRegistry =>
  new AuditorRegistry([{ id: 'ext', url: 'http://127.0.0.1:8101', deploymentMode: 'sidecar' }], {
    tls: {},
    env: {},
    timeoutMs: 1000,
    log: createLogger('gateway-test', { level: 'error' }),
    verifierUrl,
    apiKey: 'gateway-key',
  });

describe('the gateway’s auditor registry', () => {
  it('acknowledges a known auditor re-registering without the key, and moves nothing', async () => {
    const r = registry();
    const [status, body] = await r.register(
      { auditor_id: 'ext', endpoint: 'https://attacker.example.net', auth: { type: 'none' } },
      false,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ registered: true, auditor_id: 'ext' });
    expect(r.list()).toMatchObject([{ id: 'ext', url: 'http://127.0.0.1:8101', deploymentMode: 'sidecar' }]);
    const [unknown] = await r.register({ auditor_id: 'new', endpoint: 'http://127.0.0.1:1' }, false);
    expect(unknown).toBe(401);
  });

  it('answers the Verifier’s refusal as it is and does not apply the registration', async () => {
    const r = registry();
    const [status, body] = await r.register(
      { auditor_id: 'ext', endpoint: 'http://127.0.0.1:1', deployment_mode: 'external' },
      true,
    );
    expect(status).toBe(403);
    expect(body).toEqual(REFUSAL);
    expect(r.list()).toMatchObject([{ id: 'ext', url: 'http://127.0.0.1:8101', deploymentMode: 'sidecar' }]);
  });
});

describe('registrationTarget', () => {
  it('takes a DNS-label id and an http(s) endpoint, without trailing slashes', () => {
    expect(registrationTarget({ auditor_id: 'pii-1', endpoint: 'https://a.example:8443//' })).toEqual({
      id: 'pii-1',
      endpoint: 'https://a.example:8443',
    });
  });

  it('refuses ids that are not DNS labels, other schemes and missing fields', () => {
    for (const body of [
      { auditor_id: 'Pii', endpoint: 'http://a' },
      { auditor_id: '-pii', endpoint: 'http://a' },
      { auditor_id: 'pii', endpoint: 'ftp://a' },
      { auditor_id: 'pii' },
      { endpoint: 'http://a' },
      { auditor_id: 7, endpoint: 'http://a' },
    ])
      expect(registrationTarget(body as never)).toBeUndefined();
  });
});
