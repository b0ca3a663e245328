// Workload identity through a real operator: an agent gets its SVIDs in a
// Secret beside it, signed with the trust-domain key the Verifier keeps, which
// the published bundle verifies (JWT-SVID for the authorization server, an
// X.509-SVID with one URI SAN that chains to the bundle's CA); a suspended
// agent loses them.
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import { maintainTrustKeys } from '../../base/identity/key-secret.ts';
import { trustBundle } from '../../base/identity/trust-keys.ts';
import { k8s } from '../../base/kube.ts';
import { trustKeyPolicy } from '../../api/identity/trust-bundle.ts';
import { DEFAULT_NAME, RESOURCES } from '../../contract/kube.ts';
import { useApi, type Reply } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';

const ns = useNamespace('identity-svid');
const fx = useApi(ns, () => ({ PLATFORM_TRUST_DOMAIN: 'platform.local' }));
// The issuer the harness API names itself (its default); the check reaches it at its real address.
const issuer = (): string => `http://platform-verifier.${ns.name}.svc:8000`;
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const decode = (b64?: string): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
let operator: OperatorProcess;

beforeAll(async () => {
  // What the Verifier does at start: the trust-domain keys in its namespace.
  await maintainTrustKeys(
    core(),
    { namespace: ns.name, name: DEFAULT_NAME.trustKeySecret },
    trustKeyPolicy('platform.local', 3_600_000),
  );
  operator = await startOperator({
    namespace: ns.name,
    identity: 'identity-svid-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
      PLATFORM_TRUST_DOMAIN: 'platform.local',
      PLATFORM_OAUTH_ISSUER: issuer(),
      PLATFORM_OAUTH_TOKEN_URL: `${fx.api.url}/oauth/token`,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

afterAll(async () => {
  await operator?.stop();
});

const credentials = (g: Reply): { status?: string; reason?: string } | undefined =>
  (
    g.body.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined
  )?.conditions?.find((c) => c.type === 'CredentialsReady');

async function svidSecret(name: string): Promise<k8s.V1Secret | undefined> {
  return core()
    .readNamespacedSecret({ namespace: ns.name, name: `agent-${name}-svid` })
    .catch(() => undefined);
}

describe('SVIDs from the operator', () => {
  it('signs a JWT-SVID and an X.509-SVID that the trust bundle verifies', async () => {
    const agentId = await fx.createAgent('svid-bot');
    const secret = await eventually(() => svidSecret('svid-bot'), 'the SVID Secret', 60_000);
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformAgent', name: 'svid-bot' });
    const keys = await core().readNamespacedSecret({ namespace: ns.name, name: DEFAULT_NAME.trustKeySecret });
    const stored = JSON.parse(decode(keys.data?.['keys.json']));
    const bundle = trustBundle('platform.local', stored, 300);
    const spiffeId = `spiffe://platform.local/agent/${agentId}`;
    const verified = await verifyJwtSvid(decode(secret.data?.['svid.jwt']), {
      bundle: bundle.jwt_authorities,
      audience: issuer(),
      trustDomain: 'platform.local',
    });
    expect(verified).toMatchObject({ ok: true, spiffeId });
    const cert = forge.pki.certificateFromPem(decode(secret.data?.['svid.pem']));
    const san = cert.getExtension('subjectAltName') as { altNames: { type: number; value: string }[] };
    expect(san.altNames).toEqual([{ type: 6, value: spiffeId }]);
    expect((cert.getExtension('basicConstraints') as { cA: boolean }).cA).toBe(false);
    const ca = forge.pki.certificateFromPem(bundle.x509_authorities[0]!);
    expect(ca.verify(cert)).toBe(true);
    expect(decode(secret.data?.['bundle.pem'])).toContain('BEGIN CERTIFICATE');
    // CredentialsReady means the client obtained a token with it, at the real token endpoint.
    const ready = await fx.until(`/v1/agents/${agentId}`, (g) => credentials(g)?.status === 'True', 'owner');
    expect(credentials(ready)).toMatchObject({ reason: 'TokenObtained' });
  });

  it('removes them when the agent is suspended (no Owner left)', async () => {
    await fx.createAgent('svid-gone');
    await eventually(() => svidSecret('svid-gone'), 'the SVID Secret', 60_000);
    // As kubectl would: the last Owner removed, the agent controller suspends it.
    const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
    await custom.patchNamespacedCustomObject(
      { ...RESOURCES.agent, namespace: ns.name, name: 'svid-gone', body: { spec: { owners: [] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await eventually(
      async () => ((await svidSecret('svid-gone')) ? undefined : true),
      'the SVID Secret gone',
      60_000,
    );
  });
});
