// The Verifier API's main routes, as the RBAC proof (rbac-minimal.test.ts) runs them
// against the samples: agents (deleted once an Owner approves), registrations and
// notarization, policies, approvals, delegation, Evidence and the passport, the app
// catalog, scoped tools and credentials, auditor settings, workflows, a definition file applied, API keys and a
// ServiceAccount-token caller. Each call must answer its success status, and each waits
// for what it triggers: a route that failed half-way, or a write not yet made, would
// leave grants unused for the wrong reason.
import { k8s } from '../../base/kube.ts';
import { sampleEvidence } from '../process/fixtures/evidence.ts';
import { until } from './rbac-cluster-flows.ts';

const { CoreV1Api, CustomObjectsApi } = k8s;
const PLATFORM = { group: 'platform.io', version: 'v1alpha1' };

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

/** Registrations, notarization (of an auditor's and a model's image), policies and the app catalog. */
async function registryFlows(call: Call): Promise<void> {
  const digest = 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  const auditor = {
    auditor_id: 'rbac-auditor',
    endpoint: 'https://a.example.com',
    deployment_mode: 'external',
    auth: { type: 'mtls', cert_pem: 'ca' },
    image_digest: digest,
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
  // Notarization annotates the registrations the Verifier's cache holds: repeated until it holds the auditor.
  await eventuallyOk(
    () => call('POST', '/v1/registry/notarizations', { digest }),
    (r) => JSON.stringify(r.body.records).includes('auditorregistrations/'),
  );
  const policy = { description: 'rbac', scope: 'workspace', scopeId: 'research', detection: {} };
  await call('POST', '/v1/policies', { id: 'default.rbac-policy', spec: policy });
  await call('PUT', '/v1/policies/default.rbac-policy', { spec: { ...policy, description: 'changed' } });
  await call('DELETE', '/v1/policies/default.rbac-policy');
  // Installed twice: the second replaces the first.
  await call('POST', `/v1/app-catalog/agents/${AGENT}/install`, { app_id: 'pii-scanner' });
  await call('POST', `/v1/app-catalog/agents/${AGENT}/install`, { app_id: 'pii-scanner' }, 200);
  await call('DELETE', `/v1/app-catalog/agents/${AGENT}/uninstall?app_id=pii-scanner`);
}

/** Scoped tools (installed, then changed) and credentials (with material, or an OAuth flow's first), auditor settings. */
async function tierFlows(call: Call): Promise<void> {
  const tier = { scope: 'workspace', scope_id: 'default.research' };
  await call('GET', '/v1/scopes');
  const install = { ...tier, tool: 'builtin-toxicity', enforcement: 'available' };
  const tool = await call('POST', '/v1/scoped-tools', install);
  await call('POST', '/v1/scoped-tools', { ...install, enforcement: 'required' }, 200);
  await call('GET', '/v1/scoped-tools/effective?agent_id=default.summarizer');
  await call('DELETE', `/v1/scoped-tools/${String(tool.body.id)}`);
  const cred = await call('POST', '/v1/scoped-credentials', { ...tier, service: 'jira', material: 'm-1' });
  await call('POST', `/v1/scoped-credentials/${String(cred.body.id)}/rotate`, { material: 'm-2' });
  await call('DELETE', `/v1/scoped-credentials/${String(cred.body.id)}`);
  const flow = await call('POST', '/v1/scoped-credentials', {
    ...tier,
    service: 'rbac-oauth',
    type: 'oauth_flow',
  });
  await call('POST', `/v1/scoped-credentials/${String(flow.body.id)}/rotate`, { material: 'first' });
  await call('DELETE', `/v1/scoped-credentials/${String(flow.body.id)}`);
  const setting = { auditor_id: 'toxicity', setting: 'threshold', value: 0.5 };
  await call('PUT', '/v1/auditors/settings', { scope: 'org', organization: 'acme', ...setting });
  await call('PUT', '/v1/auditors/settings', {
    scope: 'workspace',
    namespace: 'default',
    workspace: 'research',
    ...setting,
  });
}

/**
 * A workflow created, listed, replaced, deployed; then a node added while deployed (its agent
 * not there yet: the operator reads it live and marks the workflow failed); stopped, deleted.
 */
async function workflowFlows(call: Call, admin: k8s.KubeConfig): Promise<void> {
  const spec = { owners: OWNERS, model: { id: 'gpt-test' } };
  const lead = { name: 'lead', agent: 'wf-lead', spec };
  const flow = { namespace: 'default', name: 'rbac-flow', nodes: [lead] };
  await call('POST', '/api/v1/workflows', flow);
  await call('GET', '/api/v1/workflows');
  const { namespace: _ns, name: _name, ...graph } = flow;
  await call('PUT', '/api/v1/workflows/default.rbac-flow', { ...graph, description: 'changed' });
  await call('POST', '/api/v1/workflows/default.rbac-flow/deploy');
  await eventuallyOk(
    () => call('GET', '/api/v1/workflows/default.rbac-flow'),
    (r) => r.body.phase !== 'draft',
  );
  const extra = { name: 'extra', agent: 'wf-extra', spec };
  await call('PUT', '/api/v1/workflows/default.rbac-flow', { ...graph, nodes: [lead, extra] });
  const custom = admin.makeApiClient(CustomObjectsApi);
  await until(
    admin,
    async () => {
      const wf = (await custom.getNamespacedCustomObject({
        ...PLATFORM,
        namespace: 'default',
        plural: 'workflows',
        name: 'rbac-flow',
      })) as { status?: { phase?: string } };
      return wf.status?.phase === 'failed' ? true : undefined;
    },
    'the operator to find the new node’s agent missing',
  );
  await call('POST', '/api/v1/workflows/default.rbac-flow/stop');
  await call('DELETE', '/api/v1/workflows/default.rbac-flow');
}

/** Evidence from the probe agent's Gateway: its AttestationResult lands in the agent's status (passport). */
async function passportFlow(call: Call, as: KeyCall, admin: k8s.KubeConfig): Promise<void> {
  const gateway = await keyFor(call, `gateway:${AGENT}`, 'gateway');
  const r = await as(gateway, 'POST', '/v1/evidence', await sampleEvidence(`rbac-${Date.now()}`, AGENT));
  if (r.status !== 201)
    failures.push(`POST /v1/evidence: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  const custom = admin.makeApiClient(CustomObjectsApi);
  await until(
    admin,
    async () => {
      const agent = (await custom.getNamespacedCustomObject({
        ...PLATFORM,
        namespace: 'default',
        plural: 'platformagents',
        name: 'rbac-probe',
      })) as { status?: { trustTier?: string } };
      return agent.status?.trustTier ? true : undefined;
    },
    'the passport in the probe agent’s status',
  );
}

/** A caller with a Kubernetes ServiceAccount token (TokenRequest API) instead of an API key. */
async function serviceAccountCaller(c: ApiClient): Promise<void> {
  const core = c.admin.makeApiClient(CoreV1Api);
  const sa = { namespace: 'default', name: 'rbac-caller' };
  await core.createNamespacedServiceAccount({
    namespace: sa.namespace,
    body: { metadata: { name: sa.name } },
  });
  const token = await core.createNamespacedServiceAccountToken({
    ...sa,
    body: { spec: { audiences: [], expirationSeconds: 600 } },
  });
  const r = await caller(c, token.status?.token ?? '')('GET', '/v1/api-keys');
  if (!JSON.stringify(r.body).includes('items')) failures.push('the ServiceAccount caller got no answer');
}

/** DELETE asks the Owners; an Owner approves, and the Verifier deletes the agent. */
async function deleteProbe(call: Call, as: KeyCall): Promise<void> {
  const owner = await keyFor(call, 'olivia@example.com');
  const asked = await call('DELETE', `/v1/agents/${AGENT}`);
  const approval = (asked.body.approval as { id: string }).id;
  await eventuallyOk(() => as(owner, 'GET', `/v1/approvals/${approval}`));
  const decided = await as(owner, 'POST', `/v1/approvals/${approval}/approve`, {});
  if (decided.body.result !== 'agent deleted')
    failures.push(`delete approved: ${JSON.stringify(decided.body)}`);
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

/**
 * A definition file (the UI's editor) validated, then applied server-side: each kind read live,
 * dry-run, applied. The workspace goes to a namespace of its own: two workspaces in one namespace
 * would contend for its chain ConfigMap.
 */
async function definitionFlows(call: Call, admin: k8s.KubeConfig): Promise<void> {
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'rbac-defined' } } });
  const text = [
    'apiVersion: platform.io/v1alpha1\nkind: PlatformWorkspace\nmetadata:\n  name: rbac-defined\n  namespace: rbac-defined\nspec: {}\n',
    'apiVersion: platform.io/v1alpha1\nkind: PlatformEnvironment\nmetadata:\n  name: rbac-defined\nspec:\n  deploymentType: model\n  model:\n    id: llama-3-8b\n',
    `apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: rbac-defined\nspec:\n  owners:\n    - subject: ${OWNERS[0]!.subject}\n      role: Owner\n  model:\n    id: gpt-test\n`,
  ].join('---\n');
  await call('POST', '/v1/definitions/validate', { text, namespace: 'default' });
  await call('POST', '/v1/definitions/apply', { text, namespace: 'default' });
}

export async function runApiFlows(c: ApiClient): Promise<void> {
  const call = caller(c, c.bootstrapKey);
  const as: KeyCall = (key, method, path, body) => caller(c, key)(method, path, body);
  await agentFlows(call, as, c.admin);
  await passportFlow(call, as, c.admin);
  await registryFlows(call);
  await tierFlows(call);
  await workflowFlows(call, c.admin);
  await definitionFlows(call, c.admin);
  await serviceAccountCaller(c);
  const minted = await call('POST', '/v1/api-keys', { subject: 'temp@example.com' });
  await call('DELETE', `/v1/api-keys/${String(minted.body.id)}`);
  await deleteProbe(call, as);
  if (failures.length > 0) throw new Error(`API calls failed:\n${failures.join('\n')}`);
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
