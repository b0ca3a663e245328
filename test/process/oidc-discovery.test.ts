// OIDC discovery against a real loopback issuer: the document must be a 2xx
// answer naming the configured issuer, or tokens of that issuer are refused
// with the reason (and no keys are fetched from where the document points).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverJwks, oidcAuthenticator } from '../../api/auth/oidc.ts';

let server: Server;
let base = '';
const jwksFetches: string[] = [];

/** `/<case>/.well-known/openid-configuration` answers per case; the issuer is `<base>/<case>`. */
function discovery(kind: string): { status: number; body: string } {
  const self = `${base}/${kind}`;
  const doc = (issuer: unknown): string => JSON.stringify({ issuer, jwks_uri: `${self}/jwks` });
  switch (kind) {
    case 'good':
      return { status: 200, body: doc(self) };
    case 'other-issuer':
      return { status: 200, body: doc('https://attacker.example') };
    case 'no-issuer':
      return { status: 200, body: JSON.stringify({ jwks_uri: `${self}/jwks` }) };
    case 'trailing-slash':
      return { status: 200, body: doc(`${self}/`) };
    case 'not-found':
      return { status: 404, body: doc(self) };
    case 'server-error':
      return { status: 503, body: doc(self) };
    default:
      return { status: 200, body: 'not json' };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const [, kind = '', ...rest] = (req.url ?? '').split('/');
    res.setHeader('content-type', 'application/json');
    if (rest.join('/') === 'jwks') {
      jwksFetches.push(kind);
      return res.end(JSON.stringify({ keys: [] }));
    }
    const { status, body } = discovery(kind);
    res.statusCode = status;
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A JWT-shaped token naming `iss` (unsigned: discovery comes before any signature check). */
function tokenFrom(iss: string): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'ES256', kid: 'k1' })}.${part({ iss, sub: 'u', exp: 4_000_000_000 })}.AAAA`;
}

async function rejection(kind: string): Promise<string | undefined> {
  const issuer = `${base}/${kind}`;
  const authenticator = oidcAuthenticator({
    issuer,
    audience: 'platform-api',
    subjectClaim: 'sub',
    groupsClaim: 'groups',
    grants: { orgAdmins: [], workspaceAdmins: [] },
  });
  const outcome = await authenticator.authenticate(tokenFrom(issuer));
  return outcome && 'reject' in outcome ? outcome.reject : undefined;
}

describe('OIDC discovery', () => {
  it('returns the jwks_uri of a document naming the configured issuer', async () => {
    expect(await discoverJwks(`${base}/good`)).toBe(`${base}/good/jwks`);
  });

  it('refuses a document that names another issuer, none, or a different spelling', async () => {
    await expect(discoverJwks(`${base}/other-issuer`)).rejects.toThrow(
      `OIDC discovery at ${base}/other-issuer/.well-known/openid-configuration names "https://attacker.example", not the configured issuer "${base}/other-issuer"`,
    );
    await expect(discoverJwks(`${base}/no-issuer`)).rejects.toThrow(/names no issuer, not the configured/);
    await expect(discoverJwks(`${base}/trailing-slash`)).rejects.toThrow(/not the configured issuer/);
  });

  it('refuses a non-2xx answer, naming the status, even when its body looks right', async () => {
    await expect(discoverJwks(`${base}/not-found`)).rejects.toThrow(/answered HTTP 404$/);
    await expect(discoverJwks(`${base}/server-error`)).rejects.toThrow(/answered HTTP 503$/);
    await expect(discoverJwks(`${base}/garbage`)).rejects.toThrow(/is not a JSON object$/);
  });

  it("rejects the issuer's tokens with the reason and never fetches the keys it points at", async () => {
    expect(await rejection('other-issuer')).toMatch(/^OIDC token rejected: .*not the configured issuer/);
    expect(await rejection('not-found')).toMatch(/^OIDC token rejected: .*answered HTTP 404$/);
    expect(jwksFetches).toEqual([]);
  });
});
