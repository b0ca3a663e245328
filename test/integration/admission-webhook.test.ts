// /mutate and /validate on the real control plane: the webhooks are
// registered by URL to the HTTPS server this file runs, with certificates the
// webhook issues itself and a loopback Verifier for notarization.
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { startWebhookApp, type WebhookApp } from '../../webhooks/app.ts';
import { inspect } from '../../webhooks/tls/x509.ts';
import { httpNotary } from '../../webhooks/validate/notary.ts';
import { DIGEST_A, quietLogger, testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import { useApi } from './api-harness.ts';
import {
  TEST_FILE_LABEL,
  eventually,
  kubeConfig,
  registerWebhooks,
  rejection,
  useNamespace,
} from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('admission', { 'platform.computing/enabled': 'true' });
// The real Verifier API answers the webhook's notarization checks.
const verifierApi = useApi(ns);
const NOTARIZED = [DIGEST_A, `sha256:${'b'.repeat(64)}`];
const registrationName = (i: number): string => `notary-${ns.fileId}-${i}`;
const DAY_MS = 86_400_000;
let clockOffsetMs = -340 * DAY_MS; // certificates issued "340 days ago": they expire in 25 days
let app: WebhookApp;
let unregister: () => Promise<void>;
const plainNs = (): string => `${ns.name}-plain`;
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const configName = (i: number): string => `test-${ns.fileId}-${i}`;

function securedPod(
  name: string,
  annotations: Record<string, string> = {},
  labels = { 'platform.io/secured': 'true' },
): k8s.V1Pod {
  return {
    metadata: { name, labels, annotations },
    spec: {
      containers: [{ name: 'agent', image: 'registry.example/agent:1.0', ports: [{ containerPort: 3000 }] }],
    },
  };
}

async function createPod(pod: k8s.V1Pod, namespace = ns.name): Promise<{ pod: k8s.V1Pod; warning: string }> {
  const info = await core().createNamespacedPodWithHttpInfo({ namespace, body: pod });
  return { pod: info.data, warning: String(info.headers['warning'] ?? '') };
}

const status = (pod: k8s.V1Pod): { source: string; chain: string[]; ports: Record<string, number> } =>
  JSON.parse(pod.metadata?.annotations?.['platform.computing/injection-status'] ?? 'null');

/** AuditorRegistrations carrying the two digests, notarized by an admin through the Verifier API. */
async function registerNotarized(): Promise<void> {
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  for (const [i, digest] of NOTARIZED.entries()) {
    await custom.createClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'auditorregistrations',
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AuditorRegistration',
        metadata: { name: registrationName(i) },
        spec: {
          auditorId: registrationName(i),
          category: 'security',
          phase: 'input_guarding',
          deploymentMode: 'sidecar',
          image: `registry.example/auditor@${digest}`,
          imageDigest: digest,
        },
      },
    });
    await eventually(async () => {
      const r = await verifierApi.call('POST', '/v1/registry/notarizations', {
        key: verifierApi.keys.org_admin,
        body: { digest },
      });
      return r.status === 200 ? r : undefined;
    }, `notarizing ${digest}`);
    await verifierApi.until(`/registry/check?digest=${digest}`, (r) => r.body.notarized === true);
  }
}

beforeAll(async () => {
  await registerNotarized();
  await core().createNamespace({
    body: { metadata: { name: plainNs(), labels: { [TEST_FILE_LABEL]: ns.fileId } } },
  });
  app = await startWebhookApp({
    kc: kubeConfig(),
    log: quietLogger(),
    instance: 'admission-test',
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 4 << 20,
    mutate: testMutateOptions(),
    strictNotarization: false,
    notary: {
      verifierUrl: verifierApi.api.url,
      timeoutMs: 1000,
      cacheTtlMs: 60_000,
      negativeCacheTtlMs: 1000,
    },
    clusterCacheTtlMs: 0,
    tls: {
      secret: { namespace: ns.name, name: 'webhook-tls' },
      names: { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1'] },
      mutatingConfig: configName(0),
      validatingConfig: configName(1),
      manage: true,
      isLeader: () => true,
      now: () => new Date(Date.now() + clockOffsetMs),
    },
  });
  const base = `https://127.0.0.1:${app.server.port}`;
  const caPem = Buffer.from(
    (await core().readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' })).data?.['ca.crt'] ?? '',
    'base64',
  ).toString();
  unregister = await registerWebhooks(ns, [
    {
      kind: 'mutating',
      url: `${base}/mutate`,
      caBundlePem: caPem,
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
    },
    {
      kind: 'validating',
      url: `${base}/validate`,
      caBundlePem: caPem,
      rules: [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['pods', 'pods/ephemeralcontainers'],
        },
      ],
    },
  ]);
  // Registration takes effect asynchronously: wait until a dry-run pod comes back injected.
  await eventually(async () => {
    const probe = await core().createNamespacedPod({
      namespace: ns.name,
      body: securedPod('probe'),
      dryRun: 'All',
    });
    return status(probe) ? true : undefined;
  }, 'the webhooks to take effect');
});

afterAll(async () => {
  const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  for (const i of NOTARIZED.keys()) {
    await custom
      .deleteClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: 'auditorregistrations',
        name: registrationName(i),
      })
      .catch(() => undefined);
  }
});

afterAll(async () => {
  await unregister?.();
  await app?.close();
  await core()
    .deleteNamespace({ name: plainNs() })
    .catch(() => undefined);
});

describe('/mutate on a real apiserver', () => {
  it('stores a secured pod with the sidecars, env, ports, resources and init container in chain order', async () => {
    const { pod } = await createPod(securedPod('wired'));
    const init = pod.spec?.initContainers ?? [];
    expect(init.map((c) => c.name)).toEqual([
      'platform-init',
      'auditor-injection',
      'auditor-toxicity',
      'auditor-model-context',
      'auditor-llm-judge',
      'platform-gateway',
      'platform-credential-proxy',
    ]);
    const env = (name: string): Record<string, string> =>
      Object.fromEntries((init.find((c) => c.name === name)?.env ?? []).map((e) => [e.name, e.value ?? '']));
    expect(env('auditor-injection')).toMatchObject({
      PLATFORM_AUDITOR_ID: 'injection',
      PLATFORM_CHAIN_NEXT: 'http://127.0.0.1:8093',
      PORT: '8090',
    });
    expect(env('auditor-llm-judge')).toMatchObject({
      PLATFORM_CHAIN_NEXT: 'https://models.example/v1',
      PORT: '8095',
    });
    expect(env('platform-gateway')).toMatchObject({
      PORT: '8099',
      PLATFORM_AGENT_ID: `${ns.name}.wired`,
      PLATFORM_AUDIT_MODE: 'enforce',
    });
    const auditor = init[1] as k8s.V1Container;
    expect(auditor.restartPolicy).toBe('Always');
    expect(auditor.resources).toEqual({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '256Mi' },
    });
    expect(auditor.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1337,
      allowPrivilegeEscalation: false,
    });
    expect(init[0]?.command?.[2]).toContain('--uid-owner 1337 -j RETURN');
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['agent']);
  });

  it('lets each chain source win in its turn: default, ConfigMap, auditors annotation, auditor-chain annotation', async () => {
    expect(status((await createPod(securedPod('src-default'))).pod).source).toBe('default');
    await core().createNamespacedConfigMap({
      namespace: ns.name,
      body: {
        metadata: { name: 'platform-auditor-chain' },
        data: { preRequest: 'toxicity', postResponse: 'injection' },
      },
    });
    const fromMap = status((await createPod(securedPod('src-configmap'))).pod);
    expect(fromMap).toMatchObject({
      source: 'configmap',
      chain: ['toxicity', 'injection', 'model-context', 'llm-judge'],
    });
    const fromAuditors = status(
      (await createPod(securedPod('src-auditors', { 'platform.computing/auditors': 'injection' }))).pod,
    );
    expect(fromAuditors).toMatchObject({
      source: 'annotation:auditors',
      chain: ['injection', 'model-context', 'llm-judge'],
    });
    const chainAnn = {
      'platform.computing/auditors': 'injection',
      'platform.computing/auditor-chain': 'llm-judge,toxicity',
    };
    const fromChain = status((await createPod(securedPod('src-chain', chainAnn))).pod);
    expect(fromChain).toMatchObject({
      source: 'annotation:auditor-chain',
      chain: ['llm-judge', 'toxicity', 'model-context'],
    });
    await core().deleteNamespacedConfigMap({ namespace: ns.name, name: 'platform-auditor-chain' });
  });

  it('gives two third-party auditors that both register port 8080 distinct ports', async () => {
    const { pod } = await createPod(
      securedPod('ports', { 'platform.computing/auditors': 'acme-pii,acme-secrets' }),
    );
    expect(status(pod).ports).toMatchObject({ 'acme-pii': 8080, 'acme-secrets': 8101 });
    const ports = (pod.spec?.initContainers ?? []).flatMap((c) =>
      (c.ports ?? []).map((p) => p.containerPort),
    );
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('wires an AuditorRegistration registered a moment before the pod: an in-cluster one through the gateway, no sidecar', async () => {
    const custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
    const id = `remote-${ns.fileId}`;
    await custom.createClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'auditorregistrations',
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AuditorRegistration',
        metadata: { name: id },
        spec: {
          auditorId: id,
          category: 'security',
          phase: 'input_guarding',
          deploymentMode: 'in-cluster',
          endpoint: `http://${id}.auditors.svc:8080`,
        },
      },
    });
    try {
      const { pod, warning } = await createPod(
        securedPod('remote-wired', { 'platform.computing/auditor-chain': `injection,${id}` }),
      );
      expect(warning).toBe('');
      const containers = (pod.spec?.initContainers ?? []).map((c) => c.name);
      expect(containers).not.toContain(`auditor-${id}`);
      const gateway = pod.spec?.initContainers?.find((c) => c.name === 'platform-gateway');
      expect(gateway?.env?.find((e) => e.name === 'PLATFORM_CHAIN')?.value).toContain(
        `${id}=http://${id}.auditors.svc:8080`,
      );
      expect(status(pod).chain).toEqual(['injection', id, 'model-context', 'llm-judge']);
    } finally {
      await custom.deleteClusterCustomObject({
        group: GROUP,
        version: VERSION,
        plural: 'auditorregistrations',
        name: id,
      });
    }
  });

  it('leaves pods untouched in an unlabelled namespace, without the secured label, or with skip-audit "true"', async () => {
    const untouched = [
      (await createPod(securedPod('plain-ns'), plainNs())).pod,
      (await createPod(securedPod('plain-pod', {}, { 'platform.io/secured': 'false' }))).pod,
      (await createPod(securedPod('skipped', { 'platform.computing/skip-audit': 'true' }))).pod,
    ];
    for (const pod of untouched) {
      expect(pod.spec?.initContainers ?? []).toEqual([]);
      expect(pod.spec?.containers.map((c) => c.name)).toEqual(['agent']);
      expect(pod.metadata?.annotations?.['platform.computing/injection-status']).toBeUndefined();
    }
  });

  it('creates a pod with an invalid annotation unchanged, shows the client a warning and records an Event', async () => {
    const { pod, warning } = await createPod(
      securedPod('invalid', {
        'platform.computing/auditors': 'injection,nope',
        'platform.computing/audit-mode': 'loud',
      }),
    );
    expect(pod.spec?.initContainers ?? []).toEqual([]);
    expect(warning).toContain('unknown auditor nope');
    expect(warning).toContain('platform.computing/audit-mode: expected enforce or observe');
    const event = await eventually(async () => {
      const events = await core().listNamespacedEvent({ namespace: ns.name });
      return events.items.find(
        (e) => e.reason === 'InvalidAuditAnnotations' && e.involvedObject.name === 'invalid',
      );
    }, 'the InvalidAuditAnnotations Event');
    expect(event.message).toContain('unknown auditor nope');
  });
});

describe('/validate on a real apiserver', () => {
  const undigested = { 'platform.computing/auditors': 'acme-secrets' }; // registry.example/acme-secrets:2.1
  const unNotarized = { 'platform.computing/auditors': 'acme-legacy' }; // digest c…c, unknown to the Verifier

  it('rejects in strict mode an undigested auditor image and an un-notarized digest, naming the image', async () => {
    app.validateDeps.strictNotarization = true;
    try {
      expect(await rejection(createPod(securedPod('strict-tag', undigested)))).toMatch(
        /registry\.example\/acme-secrets:2\.1 is not pinned by digest/,
      );
      expect(await rejection(createPod(securedPod('strict-unnotarized', unNotarized)))).toMatch(
        /acme-legacy@sha256:c{64} is not notarized/,
      );
      expect(
        (await createPod(securedPod('strict-ok', { 'platform.computing/auditors': 'acme-pii' }))).pod.metadata
          ?.name,
      ).toBe('strict-ok');
    } finally {
      app.validateDeps.strictNotarization = false;
    }
  });

  it('admits both in non-strict mode with warnings', async () => {
    const tag = await createPod(securedPod('lax-tag', undigested));
    expect(tag.warning).toContain('is not pinned by digest');
    const unnotarized = await createPod(securedPod('lax-unnotarized', unNotarized));
    expect(unnotarized.warning).toContain('is not notarized');
  });

  it('admits with a warning when the Verifier is unreachable (non-strict, fail-open)', async () => {
    const notary = app.validateDeps.notary;
    app.validateDeps.notary = httpNotary({
      verifierUrl: 'http://127.0.0.1:1',
      timeoutMs: 500,
      cacheTtlMs: 0,
      negativeCacheTtlMs: 0,
    });
    try {
      const { pod, warning } = await createPod(securedPod('verifier-down'));
      expect(pod.metadata?.name).toBe('verifier-down');
      expect(warning).toContain('cannot check notarization: Verifier unreachable');
    } finally {
      app.validateDeps.notary = notary;
    }
  });

  it('rejects in strict mode an unverified ephemeral (kubectl debug) container in an audited pod', async () => {
    const { pod } = await createPod(securedPod('debugged'));
    app.validateDeps.strictNotarization = true;
    try {
      const body = {
        ...pod,
        spec: { ...pod.spec, ephemeralContainers: [{ name: 'debugger', image: 'busybox:1.36' }] },
      } as k8s.V1Pod;
      const message = await rejection(
        core().replaceNamespacedPodEphemeralcontainers({ namespace: ns.name, name: 'debugged', body }),
      );
      expect(message).toContain('busybox:1.36 is not pinned by digest');
    } finally {
      app.validateDeps.strictNotarization = false;
    }
  });
});

function servedSerial(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().serialNumber.toLowerCase());
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('self-managed TLS', () => {
  it('renews with an injected clock: new Secret, old+new CA in both caBundles, new certificate served, pods still admitted', async () => {
    const before = await core().readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
    clockOffsetMs = 0; // 340 days later: 25 days left, inside the 30-day renewal window
    const result = await app.rotator.refresh();
    expect(result.renewed.join('; ')).toMatch(/the CA expires on/);
    expect(result.patchedConfigs).toEqual([configName(0), configName(1)]);
    const after = await core().readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
    expect(after.data?.['tls.crt']).not.toBe(before.data?.['tls.crt']);
    expect(after.data?.['ca-previous.crt']).toBe(before.data?.['ca.crt']);
    const adm = kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api);
    const bundle = Buffer.from(
      (await adm.readMutatingWebhookConfiguration({ name: configName(0) })).webhooks?.[0]?.clientConfig
        .caBundle ?? '',
      'base64',
    ).toString();
    expect(bundle.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    const servingPem = Buffer.from(after.data?.['tls.crt'] ?? '', 'base64').toString();
    expect(await servedSerial(app.server.port)).toBe(inspect(servingPem).serial.toLowerCase());
    expect(status((await createPod(securedPod('after-rotation'))).pod).source).toBe('default');
    expect(app.rotator.condition()).toMatchObject({ status: 'True', reason: 'Valid' });
  });

  it('repairs caBundle drift in the webhook configurations as soon as the watch reports it', async () => {
    const adm = kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api);
    const read = (): Promise<string | undefined> =>
      adm
        .readValidatingWebhookConfiguration({ name: configName(1) })
        .then((c) => c.webhooks?.[0]?.clientConfig.caBundle);
    const good = await read();
    const drifted = Buffer.from('drifted').toString('base64');
    // A JSON patch, not a replace: the rotator may be writing this object at the same moment.
    await adm.patchValidatingWebhookConfiguration(
      {
        name: configName(1),
        body: [{ op: 'replace', path: '/webhooks/0/clientConfig/caBundle', value: drifted }],
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    await eventually(async () => ((await read()) === good ? true : undefined), 'the watch repairing drift');
    expect(await app.rotator.repairDrift()).toEqual([]); // nothing left to repair
  });

  it('refuses pod creation with failurePolicy Fail once the webhook is stopped', async () => {
    await app.close();
    expect(await rejection(createPod(securedPod('no-webhook')))).toMatch(/failed calling webhook/);
  });
});
