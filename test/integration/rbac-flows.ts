// The Verifier API's main routes, as the RBAC proof (rbac-minimal.test.ts) runs them
// against the samples: agents, registrations, policies, approvals, delegation, the
// app catalog, scoped tools and credentials, auditor settings, workflows, API keys
// and the console. Each call must answer its success status: a route that failed
// half-way would leave grants unused for the wrong reason.
import { k8s } from '../../base/kube.ts';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { certificateNames } from '../../webhooks/settings.ts';
import { secretDataFromBundle } from '../../webhooks/tls/plan.ts';

const { CoreV1Api, CustomObjectsApi } = k8s;
const k8sMergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export interface ApiClient {
  url: string;
  bootstrapKey: string;
  admin: k8s.KubeConfig;
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

type Call = (method: string, path: string, body?: unknown, expected?: number) => Promise<Reply>;

/** Calls that did not answer as expected; the flows go on, and fail together at the end. */
const failures: string[] = [];

function caller(c: ApiClient, key: string): Call {
  return async (method, path, body, expected) => {
    const res = await fetch(`${c.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const reply = { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    const ok = expected === undefined ? res.status < 300 : res.status === expected;
    if (!ok) failures.push(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return reply;
  };
}

type KeyCall = (key: string, method: string, path: string, body?: unknown) => Promise<Reply>;

const AGENT = 'default.rbac-probe';
const OWNERS = [
  { subject: 'olivia@example.com', role: 'Owner' },
  { subject: 'eddie@example.com', role: 'Editor' },
  { subject: 'vera@example.com', role: 'Viewer' },
];

async function keyFor(call: Call, subject: string, role?: string): Promise<string> {
  const r = await call('POST', '/v1/api-keys', { subject, ...(role ? { role } : {}) });
  return String(r.body.key);
}

/** An agent's life: created, read, patched, suspended and reactivated; an Owner-approved action. */
async function agentFlows(call: Call, as: KeyCall, admin: k8s.KubeConfig): Promise<void> {
  await call('POST', '/v1/agents', {
    namespace: 'default',
    name: 'rbac-probe',
    spec: { owners: OWNERS, model: { id: 'gpt-test' } },
  });
  await eventuallyOk(() => call('GET', `/v1/agents/${AGENT}`));
  await call('PATCH', `/v1/agents/${AGENT}`, { spec: { auditMode: 'enforce' } });
  // The operator removes a suspended agent's pod: suspended once it runs one, reactivated once it is gone.
  await podOfProbe(admin, true);
  await call('POST', `/v1/agents/${AGENT}/suspend`, { reason: 'rbac proof' });
  await podOfProbe(admin, false);
  await call('POST', `/v1/agents/${AGENT}/reactivate`, {});
  const editor = await keyFor(call, 'eddie@example.com');
  const owner = await keyFor(call, 'olivia@example.com');
  const asked = await as(editor, 'POST', `/v1/agents/${AGENT}/actions`, {
    action: 'merge',
    target: 'pr://1',
  });
  const approval = (asked.body.approval as { id: string }).id;
  await eventuallyOk(() => as(owner, 'GET', `/v1/approvals/${approval}`));
  await as(owner, 'POST', `/v1/approvals/${approval}/approve`, {});
  await delegationFlows(call, as, owner);
}

/** OBO delegation: the agent asks a consent, the user grants it, an Owner revokes the grant. */
async function delegationFlows(call: Call, as: KeyCall, owner: string): Promise<void> {
  const viewer = await keyFor(call, 'vera@example.com');
  const gateway = await keyFor(call, `gateway:${AGENT}`, 'gateway');
  const base = `/v1/agents/${AGENT}/delegations`;
  const consent = await as(gateway, 'POST', `${base}/pending`, {
    user: 'vera@example.com',
    service: 'slack',
    scopes: ['chat:read'],
    ttl: '2h',
  });
  const consentId = String(consent.body.id);
  await eventuallyOk(
    () => as(viewer, 'GET', `${base}/pending`),
    (r) => JSON.stringify(r.body).includes(consentId),
  );
  const grant = await as(viewer, 'POST', base, { consent_id: consentId });
  const grantId = String(grant.body.id);
  await eventuallyOk(
    () => as(owner, 'GET', base),
    (r) => JSON.stringify(r.body).includes(grantId),
  );
  await as(owner, 'DELETE', `${base}/${grantId}`);
}

/** Registrations, notarization, policies and the app catalog. */
async function registryFlows(call: Call): Promise<void> {
  const auditor = {
    auditor_id: 'rbac-auditor',
    endpoint: 'https://a.example.com',
    deployment_mode: 'external',
    auth: { type: 'mtls', cert_pem: 'ca' },
  };
  await call('POST', '/v1/auditors/register', auditor);
  await call('POST', '/v1/auditors/register', { ...auditor, endpoint: 'https://b.example.com' });
  const model = {
    model_id: 'rbac-model',
    deployment_mode: 'in-cluster',
    endpoint: 'http://llm.example:8000',
  };
  await call('POST', '/v1/models/register', model);
  await call('POST', '/v1/models/register', { ...model, endpoint: 'http://llm.example:8001' });
  const digest = 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  await call('POST', '/v1/registry/notarizations', { digest });
  const policy = { description: 'rbac', scope: 'workspace', scopeId: 'research', detection: {} };
  await call('POST', '/v1/policies', { id: 'default.rbac-policy', spec: policy });
  await call('PUT', '/v1/policies/default.rbac-policy', { spec: { ...policy, description: 'changed' } });
  await call('DELETE', '/v1/policies/default.rbac-policy');
  await call('POST', `/v1/app-catalog/agents/${AGENT}/install`, { app_id: 'pii-scanner' });
  await call('DELETE', `/v1/app-catalog/agents/${AGENT}/uninstall?app_id=pii-scanner`);
}

/** Scoped tools and credentials, auditor settings at org and workspace tier, a workflow. */
async function tierFlows(call: Call): Promise<void> {
  const tier = { scope: 'workspace', scope_id: 'default.research' };
  const tool = await call('POST', '/v1/scoped-tools', {
    ...tier,
    tool: 'builtin-toxicity',
    enforcement: 'available',
  });
  await call('GET', '/v1/scoped-tools/effective?agent_id=default.summarizer');
  await call('DELETE', `/v1/scoped-tools/${String(tool.body.id)}`);
  const cred = await call('POST', '/v1/scoped-credentials', { ...tier, service: 'jira', material: 'm-1' });
  await call('POST', `/v1/scoped-credentials/${String(cred.body.id)}/rotate`, { material: 'm-2' });
  await call('DELETE', `/v1/scoped-credentials/${String(cred.body.id)}`);
  const setting = { auditor_id: 'toxicity', setting: 'threshold', value: 0.5 };
  await call('PUT', '/v1/auditors/settings', { scope: 'org', organization: 'acme', ...setting });
  await call('PUT', '/v1/auditors/settings', {
    scope: 'workspace',
    namespace: 'default',
    workspace: 'research',
    ...setting,
  });
  const spec = { owners: OWNERS, model: { id: 'gpt-test' } };
  const flow = { namespace: 'default', name: 'rbac-flow', nodes: [{ name: 'lead', agent: 'wf-lead', spec }] };
  await call('POST', '/api/v1/workflows', flow);
  const { namespace: _ns, name: _name, ...graph } = flow;
  await call('PUT', '/api/v1/workflows/default.rbac-flow', { ...graph, description: 'changed' });
  await call('POST', '/api/v1/workflows/default.rbac-flow/deploy');
  await eventuallyOk(
    () => call('GET', '/api/v1/workflows/default.rbac-flow'),
    (r) => r.body.phase !== 'draft',
  );
  await call('POST', '/api/v1/workflows/default.rbac-flow/stop');
  await call('DELETE', '/api/v1/workflows/default.rbac-flow');
}

async function eventuallyOk(
  probe: () => Promise<Reply>,
  ok: (r: Reply) => boolean = () => true,
): Promise<Reply> {
  const deadline = Date.now() + 30_000;
  const mark = failures.length;
  for (;;) {
    const r = await probe();
    if (r.status < 300 && ok(r)) {
      failures.length = mark; // the misses before the answer came are not failures
      return r;
    }
    if (Date.now() > deadline) {
      failures.push(`timed out: ${JSON.stringify(r.body).slice(0, 300)}`);
      return r;
    }
    await new Promise((res) => setTimeout(res, 250));
  }
}

export async function runApiFlows(c: ApiClient): Promise<void> {
  const call = caller(c, c.bootstrapKey);
  const as: KeyCall = (key, method, path, body) => caller(c, key)(method, path, body);
  await agentFlows(call, as, c.admin);
  await registryFlows(call);
  await tierFlows(call);
  const minted = await call('POST', '/v1/api-keys', { subject: 'temp@example.com' });
  await call('DELETE', `/v1/api-keys/${String(minted.body.id)}`);
  await call('DELETE', `/v1/agents/${AGENT}`);
  if (failures.length > 0) throw new Error(`API calls failed:\n${failures.join('\n')}`);
}

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

function podOfProbe(admin: k8s.KubeConfig, present: boolean): Promise<void> {
  return until(
    admin,
    async (core) => {
      const pod = await core
        .readNamespacedPod({ namespace: 'default', name: 'agent-rbac-probe' })
        .catch(() => undefined);
      return (pod !== undefined) === present ? true : undefined;
    },
    `the probe agent’s pod ${present ? 'to be created' : 'to go'}`,
  );
}

async function until(
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
 * The webhook's rarer writes: an Event on a pod it admits without injection (an invalid
 * audit annotation), and a rewrite of its certificate Secret when the one stored does not
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
        annotations: { 'platform.computing/audit-mode': 'loud' },
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
