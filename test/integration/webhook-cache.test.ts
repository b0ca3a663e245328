// The webhook on informer caches (decision 96): once its caches have synced,
// an admission makes no request to the apiserver, and certificate drift (a
// caBundle overwritten, the Secret deleted) is repaired on the watch event,
// with the polls set to an hour so only the watches can do it.
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { startWebhookApp, type WebhookApp } from '../../webhooks/app.ts';
import { quietLogger, testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import { eventually, kubeConfig, registerWebhooks, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('webhook-cache', { 'platform.computing/enabled': 'true' });
const HOUR_MS = 3_600_000;
const configName = (i: number): string => `test-${ns.fileId}-${i}`;
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const adm = (): k8s.AdmissionregistrationV1Api => kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api);
let app: WebhookApp;
let unregister: () => Promise<void>;

/** A KubeConfig that records every API call (method and path) its clients make; watches are not API calls. */
class CountingKubeConfig extends k8s.KubeConfig {
  readonly calls: string[] = [];
  override async applySecurityAuthentication(context: k8s.RequestContext): Promise<void> {
    this.calls.push(`${context.getHttpMethod()} ${new URL(context.getUrl()).pathname}`);
    await super.applySecurityAuthentication(context);
  }
}
const kc = new CountingKubeConfig();

/** Calls about the certificate (the rotator's own) are not admission reads. */
const admissionCalls = (): string[] => kc.calls.filter((c) => !/secrets|webhookconfigurations/.test(c));

interface Answer {
  response: { uid: string; allowed: boolean; patch?: string };
}

function review(path: string, body: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: app.server.port,
        path,
        method: 'POST',
        rejectUnauthorized: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const podReview = (uid: string): object => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: ns.name,
    operation: 'CREATE',
    userInfo: { username: 'cache-test' },
    object: {
      metadata: { name: uid, labels: { 'platform.io/secured': 'true' } },
      spec: { containers: [{ name: 'agent', image: 'registry.example/agent:1.0' }] },
    },
  },
});

const policyReview = (uid: string): object => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid,
    kind: { group: GROUP, version: VERSION, kind: 'AuditorPolicy' },
    resource: { group: GROUP, version: VERSION, resource: 'auditorpolicies' },
    namespace: ns.name,
    operation: 'CREATE',
    userInfo: { username: 'cache-test' },
    object: {
      apiVersion: `${GROUP}/${VERSION}`,
      kind: 'AuditorPolicy',
      metadata: { name: uid, namespace: ns.name },
      spec: {
        scope: 'workspace',
        scopeId: ns.name,
        detection: { injection_detected: { threshold: { value: 0.5 } } },
      },
    },
  },
});

const caBundleOf = async (name: string): Promise<string | undefined> =>
  (await adm().readValidatingWebhookConfiguration({ name })).webhooks?.[0]?.clientConfig.caBundle;

beforeAll(async () => {
  kc.loadFromFile(inject('kubeconfigPath'));
  await core().createNamespacedConfigMap({
    namespace: ns.name,
    body: { metadata: { name: 'platform-auditor-chain' }, data: { preRequest: 'toxicity' } },
  });
  app = await startWebhookApp({
    kc,
    log: quietLogger(),
    instance: 'webhook-cache-test',
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 4 << 20,
    mutate: testMutateOptions(),
    strictNotarization: false,
    notary: { verifierUrl: 'http://127.0.0.1:1', timeoutMs: 500, cacheTtlMs: 1000, negativeCacheTtlMs: 1000 },
    clusterCacheTtlMs: 0,
    tls: {
      secret: { namespace: ns.name, name: 'webhook-tls' },
      names: { dnsNames: [], ipAddresses: ['127.0.0.1'] },
      validatingConfig: configName(0),
      manage: true,
      isLeader: () => true,
      reloadIntervalMs: HOUR_MS,
      driftCheckIntervalMs: HOUR_MS,
    },
  });
  const secret = await core().readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
  // Only the caBundle matters here; Ignore, so a moment of drift refuses nothing.
  unregister = await registerWebhooks(ns, [
    {
      kind: 'validating',
      url: `https://127.0.0.1:${app.server.port}/validate`,
      caBundlePem: Buffer.from(secret.data?.['ca.crt'] ?? '', 'base64').toString(),
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      failurePolicy: 'Ignore',
    },
  ]);
});

afterAll(async () => {
  await unregister?.();
  await app?.close();
});

describe('admission from the informer caches', () => {
  it('is ready once synced and answers pod and policy admissions without a request to the apiserver', async () => {
    expect(app.cacheReadiness()).toBe('');
    kc.calls.length = 0;
    for (let i = 0; i < 3; i++) {
      const answer = await review('/mutate', podReview(`pod-${i}`));
      const patch = Buffer.from(answer.response.patch ?? '', 'base64').toString();
      expect(patch).toContain('\\"source\\":\\"configmap\\"'); // the chain ConfigMap, read from the cache
      // Judged against the org policies of the cluster (other files may have some): answered, either way.
      expect((await review('/validate-policy', policyReview(`policy-${i}`))).response.uid).toBe(
        `policy-${i}`,
      );
    }
    expect(admissionCalls()).toEqual([]);
  });
});

describe('certificate drift repaired on watch events', () => {
  it('writes the caBundle back when someone overwrites it', async () => {
    const name = configName(0);
    const good = await eventually(caBundleOf.bind(null, name), 'the registered caBundle');
    const config = await adm().readValidatingWebhookConfiguration({ name });
    (config.webhooks?.[0] as k8s.V1ValidatingWebhook).clientConfig.caBundle =
      Buffer.from('drifted').toString('base64');
    await adm().replaceValidatingWebhookConfiguration({ name, body: config });
    await eventually(
      async () => ((await caBundleOf(name)) === good ? true : undefined),
      'the caBundle to be repaired',
    );
  });

  it('issues a Secret again when someone deletes it, and puts its CA into the caBundle', async () => {
    await core().deleteNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
    const ca = await eventually(async () => {
      const s = await core()
        .readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' })
        .catch(() => undefined);
      return s?.data?.['ca.crt'];
    }, 'the Secret to be issued again');
    const caPem = Buffer.from(ca, 'base64').toString();
    await eventually(async () => {
      const bundle = Buffer.from((await caBundleOf(configName(0))) ?? '', 'base64').toString();
      return bundle.includes(caPem) ? true : undefined;
    }, 'the new CA in the caBundle');
    expect(app.rotator.condition().status).toBe('True');
  });
});
