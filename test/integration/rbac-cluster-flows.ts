// What the operator and the webhook do after the samples settle, driven as a user or an
// administrator would, for the RBAC proof (rbac-minimal.test.ts): each change waits for
// what it triggers, so a grant it uses is used in every run.
import { k8s } from '../../base/kube.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { certificateNames } from '../../webhooks/settings.ts';
import { secretDataFromBundle } from '../../webhooks/tls/plan.ts';

const { CoreV1Api, CustomObjectsApi } = k8s;
const k8sMergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

const PLATFORM = { group: 'platform.io', version: 'v1alpha1' };
const merge = k8sMergePatch;

/**
 * What the operator does after the samples settle, driven as a user would: the workspace
 * drops an agent and changes its chain, the environment its model, a new Organization names
 * a home namespace that does not exist, an agent is deleted.
 */
export async function changeSamples(admin: k8s.KubeConfig): Promise<void> {
  const custom = admin.makeApiClient(CustomObjectsApi);
  const patch = (plural: string, name: string, body: object): Promise<unknown> =>
    custom.patchNamespacedCustomObject({ ...PLATFORM, namespace: 'default', plural, name, body }, merge);
  await patch('platformworkspaces', 'research', {
    spec: {
      agents: [{ name: 'summarizer', model: { id: 'gpt-4o' } }],
      defaults: { auditorChain: { preRequest: [{ auditorId: 'injection' }, { auditorId: 'pii-scanner' }] } },
    },
  });
  await patch('platformenvironments', 'llama-backend', { spec: { model: { id: 'llama-3-70b' } } });
  await custom.createClusterCustomObject({
    ...PLATFORM,
    plural: 'organizations',
    body: {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'Organization',
      metadata: { name: 'beta' },
      spec: { homeNamespace: 'platform-org-beta' },
    },
  });
  await custom.deleteNamespacedCustomObject({
    ...PLATFORM,
    namespace: 'default',
    plural: 'platformagents',
    name: 'release-bot',
  });
  await until(
    admin,
    async (core) => {
      const agents = (await custom.listNamespacedCustomObject({
        ...PLATFORM,
        namespace: 'default',
        plural: 'platformagents',
      })) as {
        items: { metadata: { name: string } }[];
      };
      const names = agents.items.map((a) => a.metadata.name);
      const home = await core.readNamespace({ name: 'platform-org-beta' }).catch(() => undefined);
      return !names.includes('triager') && !names.includes('release-bot') && home ? true : undefined;
    },
    'the operator to follow the changes',
  );
}

export async function until(
  admin: k8s.KubeConfig,
  probe: (core: k8s.CoreV1Api) => Promise<true | undefined>,
  what: string,
): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const deadline = Date.now() + 60_000;
  while ((await probe(core).catch(() => undefined)) === undefined) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The webhook's rarer calls: an Event on a pod it admits without injection (an invalid
 * audit annotation, and an auditor it must look up by name), and a rewrite of its certificate Secret when the one stored does not
 * cover its names (as after a rename).
 */
export async function webhookFlows(
  admin: k8s.KubeConfig,
  secret: { namespace: string; name: string },
): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: {
        name: 'rbac-invalid',
        labels: { 'platform.io/secured': 'true' },
        // An auditor no registration names: the webhook's cache misses it, so it asks the apiserver.
        annotations: {
          'platform.computing/audit-mode': 'loud',
          'platform.computing/auditors': 'rbac-unregistered',
        },
      },
      spec: { containers: [{ name: 'agent', image: 'busybox' }] },
    },
  });
  await until(
    admin,
    async (c) => {
      const events = await c.listNamespacedEvent({ namespace: 'default' });
      return events.items.some((e) => e.reason === 'InvalidAuditAnnotations') ? true : undefined;
    },
    'the InvalidAuditAnnotations Event',
  );
  const ca = issueCa(new Date(), 30);
  const stale = {
    ca,
    serving: issueServing(
      ca,
      certificateNames({ serviceName: 'elsewhere', namespace: 'nowhere', extraSans: [] }),
      new Date(),
      30,
    ),
  };
  await core.replaceNamespacedSecret({
    ...secret,
    body: { metadata: { name: secret.name }, type: 'kubernetes.io/tls', data: secretDataFromBundle(stale) },
  });
  const fingerprint = (await core.readNamespacedSecret(secret)).data?.['tls.crt'];
  await until(
    admin,
    async (c) => {
      const now = (await c.readNamespacedSecret(secret)).data?.['tls.crt'];
      return now && now !== fingerprint ? true : undefined;
    },
    'the webhook to rewrite its certificate Secret',
  );
}

const SPEC_HASH = 'platform.io/spec-hash';
const SVID_KEY_ID = 'platform.io/svid-key-id';

/**
 * What an administrator's hand or an older release leaves for the operator to repair: the
 * environment's model Service edited (patched back), a headless Service (as an older release
 * made it) where a new environment's Service goes (deleted, then created anew), an agent's
 * SVID Secret that no longer names the signing key (re-issued in place).
 */
export async function operatorRepairs(admin: k8s.KubeConfig): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const svc = { namespace: 'default', name: 'model-llama-backend' };
  await core.patchNamespacedService(
    { ...svc, body: { metadata: { annotations: { [SPEC_HASH]: 'edited' } } } },
    merge,
  );
  await until(
    admin,
    async (c) =>
      (await c.readNamespacedService(svc)).metadata?.annotations?.[SPEC_HASH] !== 'edited' ? true : undefined,
    'the operator to patch the edited model Service back',
  );
  await headlessBeforeEnvironment(admin, svc);
  await staleSvid(admin);
}

/** A headless Service with the operator's labels, then the environment it belongs to. */
async function headlessBeforeEnvironment(
  admin: k8s.KubeConfig,
  model: { namespace: string; name: string },
): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const env = 'rbac-env';
  const svc = { namespace: model.namespace, name: `model-${env}` };
  const current = await core.readNamespacedService(model);
  const labels = Object.fromEntries(
    Object.entries(current.metadata?.labels ?? {}).map(([k, v]) => [k, v === 'llama-backend' ? env : v]),
  );
  await core.createNamespacedService({
    namespace: svc.namespace,
    body: {
      metadata: { name: svc.name, labels },
      spec: { clusterIP: 'None', selector: labels, ports: current.spec?.ports ?? [] },
    },
  });
  const template = (await custom.getNamespacedCustomObject({
    ...PLATFORM,
    namespace: model.namespace,
    plural: 'platformenvironments',
    name: 'llama-backend',
  })) as { spec: object };
  await custom.createNamespacedCustomObject({
    ...PLATFORM,
    namespace: model.namespace,
    plural: 'platformenvironments',
    body: {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'PlatformEnvironment',
      metadata: { name: env },
      spec: template.spec,
    },
  });
  await until(
    admin,
    async (c) => {
      const now = await c.readNamespacedService(svc);
      return now.spec?.clusterIP && now.spec.clusterIP !== 'None' ? true : undefined;
    },
    'the operator to replace the headless model Service',
  );
}

/** An SVID Secret whose key id is not the signing key's: re-issued when its agent next reconciles. */
async function staleSvid(admin: k8s.KubeConfig): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const agents = (await custom.listNamespacedCustomObject({
    ...PLATFORM,
    namespace: 'default',
    plural: 'platformagents',
  })) as { items: k8s.KubernetesObject[] };
  const live = new Set(
    agents.items.filter((a) => !a.metadata?.deletionTimestamp).map((a) => a.metadata?.name),
  );
  // The SVID Secret of an agent still there (a deleted agent's waits for the garbage collector).
  const ownerOf = (s: k8s.V1Secret): string | undefined =>
    s.metadata?.ownerReferences?.find((r) => r.kind === 'PlatformAgent' && live.has(r.name))?.name;
  const secrets = await core.listNamespacedSecret({ namespace: 'default' });
  const svid = secrets.items.find((s) => s.metadata?.annotations?.[SVID_KEY_ID] && ownerOf(s));
  const agent = svid && ownerOf(svid);
  if (!svid || !agent) throw new Error('no agent in default has an SVID Secret');
  const ref = { namespace: 'default', name: svid.metadata?.name ?? '' };
  await core.patchNamespacedSecret(
    { ...ref, body: { metadata: { annotations: { [SVID_KEY_ID]: 'stale' } } } },
    merge,
  );
  await custom.patchNamespacedCustomObject(
    {
      ...PLATFORM,
      namespace: 'default',
      plural: 'platformagents',
      name: agent,
      body: { metadata: { annotations: { 'rbac.test/touched': new Date().toISOString() } } },
    },
    merge,
  );
  await until(
    admin,
    async (c) =>
      (await c.readNamespacedSecret(ref)).metadata?.annotations?.[SVID_KEY_ID] !== 'stale' ? true : undefined,
    'the operator to re-issue the stale SVID Secret',
  );
}
