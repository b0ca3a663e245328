// The certificate rotator against a real apiserver: what happens when the
// Secret holds a certificate for the wrong names, with and without managing
// the certificates, and that only the leader writes.
import { describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { quietLogger } from '../../webhooks/testing/fixtures.ts';
import { issueCa, issueServing, type KeyPair } from '../../base/tls/certs.ts';
import { secretDataFromBundle } from '../../webhooks/tls/plan.ts';
import { CertRotator, type CertRotatorOptions } from '../../webhooks/tls/rotation.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('webhook-tls');
const names = { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1'] };
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);

function rotator(
  secretName: string,
  overrides: Partial<CertRotatorOptions> = {},
): { r: CertRotator; served: KeyPair[] } {
  const served: KeyPair[] = [];
  const r = new CertRotator({
    core: core(),
    admission: kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api),
    secret: { namespace: ns.name, name: secretName },
    names,
    manage: true,
    isLeader: () => true,
    onServingCertificate: (pair) => served.push(pair),
    log: quietLogger(),
    ...overrides,
  });
  return { r, served };
}

async function storeMismatchedSecret(name: string): Promise<void> {
  const now = new Date();
  const ca = issueCa(now, 365);
  const serving = issueServing(ca, { dnsNames: ['wrong.example'], ipAddresses: [] }, now, 365);
  await core().createNamespacedSecret({
    namespace: ns.name,
    body: { metadata: { name }, type: 'kubernetes.io/tls', data: secretDataFromBundle({ ca, serving }) },
  });
}

describe('webhook certificate names', () => {
  it('reports a name mismatch clearly when certificates come from elsewhere (cert-manager mode)', async () => {
    await storeMismatchedSecret('external-tls');
    const { r, served } = rotator('external-tls', { manage: false });
    const result = await r.refresh();
    expect(result.renewed).toEqual([]);
    expect(result.condition).toMatchObject({
      type: 'CertificateValid',
      status: 'False',
      reason: 'NameMismatch',
    });
    expect(result.condition.message).toBe(
      'name mismatch: the serving certificate covers DNS:wrong.example but the webhook is reached as ' +
        'DNS:platform-webhook.platform-system.svc, IP:127.0.0.1 (missing DNS:platform-webhook.platform-system.svc, IP:127.0.0.1)',
    );
    expect(served).toHaveLength(1); // still served: it is the only certificate there is
  });

  it('reissues a mismatched serving certificate when it manages them, saying why', async () => {
    await storeMismatchedSecret('managed-tls');
    const before = await core().readNamespacedSecret({ namespace: ns.name, name: 'managed-tls' });
    const { r } = rotator('managed-tls');
    const result = await r.refresh();
    expect(result.renewed).toEqual([expect.stringMatching(/^name mismatch: .*missing DNS:platform-webhook/)]);
    expect(result.condition.status).toBe('True');
    const after = await core().readNamespacedSecret({ namespace: ns.name, name: 'managed-tls' });
    expect(after.data?.['ca.crt']).toBe(before.data?.['ca.crt']); // same CA, new serving certificate
    expect(after.data?.['tls.crt']).not.toBe(before.data?.['tls.crt']);
  });

  it('writes nothing as a follower; the leader creates the Secret', async () => {
    const follower = rotator('fresh-tls', { isLeader: () => false });
    const waiting = await follower.r.refresh();
    expect(waiting.condition).toMatchObject({ status: 'False', reason: 'Missing' });
    await expect(
      core().readNamespacedSecret({ namespace: ns.name, name: 'fresh-tls' }),
    ).rejects.toMatchObject({ code: 404 });
    const leader = rotator('fresh-tls');
    expect((await leader.r.refresh()).renewed).toEqual(['no usable CA (certificate and key)']);
    const loaded = await follower.r.refresh();
    expect(loaded.condition.status).toBe('True');
    expect(follower.served[0]?.certPem).toBe(leader.served[0]?.certPem);
  });
});

describe('caBundle injection with another writer', () => {
  const admission = (): k8s.AdmissionregistrationV1Api =>
    kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api);

  it('reads again and writes when the configuration changed between its read and its write', async () => {
    const configName = `${ns.name}-conflict`;
    await admission().createValidatingWebhookConfiguration({
      body: {
        metadata: { name: configName },
        webhooks: [
          {
            name: 'check.platform.io',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            clientConfig: { url: 'https://127.0.0.1:9/validate' },
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
            namespaceSelector: { matchLabels: { 'webhook-tls-test': 'never' } },
          },
        ],
      },
    });
    try {
      const real = admission();
      let interfered = 0;
      // Another writer (kubectl apply, a GitOps sync) changes the object just before our first write.
      const racing = Object.assign(Object.create(real) as k8s.AdmissionregistrationV1Api, {
        replaceValidatingWebhookConfiguration: async (
          req: k8s.AdmissionregistrationV1ApiReplaceValidatingWebhookConfigurationRequest,
        ) => {
          if (interfered++ === 0)
            await real.patchValidatingWebhookConfiguration(
              { name: configName, body: { metadata: { labels: { 'synced-by': 'gitops' } } } },
              k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
            );
          return real.replaceValidatingWebhookConfiguration(req);
        },
      });
      const { r } = rotator('conflict-tls', { admission: racing, validatingConfig: configName });
      const [first, second] = await Promise.all([r.refresh(), r.repairDrift()]);
      expect(first.patchedConfigs).toEqual([configName]);
      expect(second).toEqual([]); // queued behind the refresh: nothing left to do
      expect(interfered).toBe(2); // one conflict, one successful write
      const stored = await real.readValidatingWebhookConfiguration({ name: configName });
      expect(stored.metadata?.labels?.['synced-by']).toBe('gitops');
      expect(stored.webhooks?.[0]?.clientConfig.caBundle).toBeTruthy();
    } finally {
      await admission().deleteValidatingWebhookConfiguration({ name: configName });
    }
  });
});
