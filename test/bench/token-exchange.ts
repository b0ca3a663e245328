// Benchmark: RFC 8693 token exchanges per second and their latency, in
// process, on the pure path of POST /v1/token-exchange (decision 143): the
// user's OIDC token verified (the API's verifier, JWKS fetched once from a
// loopback issuer and cached), the agent's JWT-SVID verified against the trust
// bundle, the grant chosen from an in-memory cache of 10,000 grants, the
// Access Manifest's account decision, the replay ledger, the token signed.
// The tokens are signed beforehand (that is the clients' work).
//   npx tsx test/bench/token-exchange.ts [--exchanges 5000]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { oidcVerifier } from '../../api/auth/oidc.ts';
import { agentOf, clientRefusal } from '../../api/oauth/client-auth.ts';
import { SubjectTokenLedger } from '../../api/oauth/subject-ledger.ts';
import { chooseGrant, tokenTerms } from '../../api/oauth/token-exchange.ts';
import { AgentIndex, MemoryCache } from '../../api/store/cache.ts';
import { grantsOfDelegation } from '../../api/store/grant-index.ts';
import { issueAccessToken } from '../../base/identity/access-token.ts';
import { issueJwtSvid, verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import { agentSpiffeId } from '../../base/identity/spiffe-id.ts';
import { generateTrustKey, signingKeyOf, trustBundle } from '../../base/identity/trust-keys.ts';
import type { DelegationGrant, PlatformAgent } from '../../crds/generated/types.ts';
import { effectiveManifest } from '../../policy/access-manifest.ts';

const TD = 'bench.local';
const NS = 'bench';
const GRANTS = 10_000;
const ISSUER = 'https://verifier.bench';
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function agent(i: number): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { namespace: NS, name: `a${i}` },
    spec: { owners: [{ subject: `u${i}@x`, role: 'Owner' }] },
    status: { spiffeId: agentSpiffeId(TD, `${NS}.a${i}`), oauthClientId: `${NS}.a${i}.c1` },
  } as PlatformAgent;
}

function grant(i: number, now: number): DelegationGrant {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'DelegationGrant',
    metadata: { namespace: NS, name: `g${i}` },
    spec: {
      user: `u${i % 1000}@x`,
      agent: `a${i % 1000}`,
      service: `svc${Math.floor(i / 1000)}`,
      scopes: ['read', 'write'],
      grantedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 3_600_000).toISOString(),
      consentRef: 'c',
    },
  };
}

async function loopbackIssuer(jwk: JWK): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function main(): Promise<void> {
  const n = arg('exchanges', 5000);
  const now = Date.now();
  const user = await generateKeyPair('ES256');
  const idp = await loopbackIssuer({ ...(await exportJWK(user.publicKey)), kid: 'u1', alg: 'ES256' });
  const oidc = oidcVerifier({
    issuer: idp.url,
    audience: 'platform-api',
    jwksUrl: `${idp.url}/jwks`,
    subjectClaim: 'sub',
    groupsClaim: 'groups',
    grants: { orgAdmins: [], workspaceAdmins: [] },
  });
  const stored = await generateTrustKey(TD, now, 3_600_000);
  const key = (await signingKeyOf([stored]))!;
  const bundle = trustBundle(TD, [stored], 300);
  const agents = new MemoryCache<PlatformAgent>();
  for (let i = 0; i < 1000; i++) agents.set(agent(i));
  const index = new AgentIndex(agents);
  const grants = new MemoryCache<DelegationGrant>();
  for (let i = 0; i < GRANTS; i++) grants.set(grant(i, now));
  const manifest = effectiveManifest();
  const ledger = new SubjectTokenLedger();

  const requests = await Promise.all(
    Array.from({ length: n }, async (_, i) => ({
      subject: await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'u1' })
        .setIssuer(idp.url)
        .setSubject(`u${i % 1000}@x`)
        .setAudience('platform-api')
        .setJti(`j${i}`)
        .setExpirationTime('5m')
        .sign(user.privateKey),
      actor: await issueJwtSvid({
        spiffeId: agentSpiffeId(TD, `${NS}.a${i % 1000}`),
        audience: `${ISSUER}/v1/token-exchange`,
        ttlSeconds: 300,
        key,
      }),
      service: `svc${i % 10}`,
    })),
  );

  const exchange = async (r: (typeof requests)[number]): Promise<void> => {
    const verified = await oidc.verify(r.subject);
    if (!verified || 'reject' in verified) throw new Error('subject refused');
    const svid = await verifyJwtSvid(r.actor, {
      bundle: bundle.jwt_authorities,
      audience: [`${ISSUER}/v1/token-exchange`, ISSUER],
      trustDomain: TD,
    });
    if (!svid.ok) throw new Error(`actor refused: ${svid.reason}`);
    const a = agentOf(svid.spiffeId, { trustDomain: TD, agentAt: (k) => index.agent(k) });
    if (!a || clientRefusal(a)) throw new Error('not an agent');
    const d = {
      user: verified.principal.subject,
      namespace: NS,
      agent: a.metadata.name!,
      service: r.service,
    };
    const g = chooseGrant(grantsOfDelegation(grants, d.user, d.service), d, ['read'], Date.now());
    const terms = tokenTerms(g, manifest, { service: r.service, scopes: ['read'] }, Date.now());
    const ledgerKey = SubjectTokenLedger.keyOf(idp.url, verified.payload.jti, r.subject);
    if (!ledger.claim(ledgerKey, svid.spiffeId, verified.payload.exp!, Math.floor(Date.now() / 1000)))
      throw new Error('replay');
    await issueAccessToken({
      issuer: ISSUER,
      subject: d.user,
      audience: r.service,
      scope: terms.scope,
      clientId: a.status!.oauthClientId!,
      actor: svid.spiffeId,
      ttlSeconds: terms.ttlSeconds,
      key,
    });
  };

  await exchange(requests[0]!); // fetches the issuer's JWKS once
  const latencies: number[] = [];
  const start = performance.now();
  for (const r of requests.slice(1)) {
    const t = performance.now();
    await exchange(r);
    latencies.push(performance.now() - t);
  }
  const seconds = (performance.now() - start) / 1000;
  const rate = latencies.length / seconds;
  console.log(
    `token exchange (${GRANTS} grants cached): ${rate.toFixed(0)}/s, ` +
      `p50 ${pct(latencies, 50).toFixed(2)} ms, p99 ${pct(latencies, 99).toFixed(2)} ms ` +
      `(${latencies.length} exchanges, one core; target > 1,000/s)`,
  );
  idp.close();
}

await main();
