// Issue 23 item 3 on the real apiserver: a running operator writes a `Ready`
// condition (status, CamelCase reason, message, observedGeneration) on one
// object of every kind, `kubectl get` shows it in the Ready column, and the
// not-ready cases say why: an AuditorPolicy whose Cedar does not compile, a
// ScopedToolInstall whose credential is missing (Ready once it appears), an
// ApprovalRequest on an agent that does not exist. And the API's decision
// write survives the operator's status write in between (recordDecision).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALL_KINDS } from '../../crds/index.ts';
import type { ApprovalRequest } from '../../crds/generated/types.ts';
import { clusterWriter } from '../../api/store/cluster.ts';
import { recordDecision } from '../../api/routes/approvals.ts';
import type { RouteCtx } from '../../api/routes/route.ts';
import { LABEL } from '../../contract/kube.ts';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startOperator } from './operator-process.ts';
import { Platform, condition, type Cond, type Obj } from './platform-client.ts';

const ns = useNamespace('ready');
const p = new Platform(() => ns.name);
const ORG = `org-${ns.fileId}`;
const AUDITOR = `aud-${ns.fileId}`;
const MODEL = `model-${ns.fileId}`;
const APP = `app-${ns.fileId}`;
const OWNER = { subject: 'alice@example.com', role: 'Owner' };
const HOUR_MS = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const DIGEST = `sha256:${'ab'.repeat(32)}`;

type Spec = Record<string, unknown>;

/** One object of every kind in namespace `n`: [kind, name, spec, labels]. Cluster-scoped names carry the file id. */
const objects = (n: string): [string, string, Spec, Record<string, string>?][] => [
  ['Organization', ORG, { homeNamespace: n, requiredAuditors: ['injection'] }],
  ['PlatformWorkspace', 'team', { organization: ORG }],
  ['PlatformAgent', 'helper', { owners: [OWNER] }],
  ['PlatformEnvironment', 'llm', { deploymentType: 'model', model: { id: 'llama-3' } }],
  ['Workflow', 'flow', { nodes: [{ name: 'a', agent: 'helper' }] }],
  ['DelegationGrant', 'grant', grantSpec()],
  [
    'ConsentRequest',
    'consent',
    { user: OWNER.subject, agent: 'helper', service: 'slack', scopes: ['chat:write'] },
  ],
  ['ScopedCredential', 'jira', credentialSpec('jira', { secretRef: { name: 'jira-token', key: 'token' } })],
  ['ScopedToolInstall', 'github', { ...TEAM, tool: 'github', credentialRef: 'gh' }],
  ['AuditorPolicy', 'good', { ...TEAM, cedar: GOOD_CEDAR }],
  ['ApprovalRequest', 'approve-delete', approvalSpec('helper')],
  // An endpoint nothing listens on: probed, and not Ready with the probe's failure.
  ['AuditorRegistration', AUDITOR, auditorSpec(n)],
  ['ModelRegistration', MODEL, modelSpec(), { [LABEL.workspace]: n }],
  ['AppCatalogEntry', APP, catalogSpec(), { [LABEL.workspace]: n }],
  ['AgentInstalledApp', 'helper-app', { agent: 'helper', app: APP }],
];

const TEAM = { scope: 'workspace', scopeId: 'team' };
const GOOD_CEDAR = 'forbid (principal, action, resource) when { context.injection_score >= 900 };';

function grantSpec(): Spec {
  const now = Date.now();
  const scopes = ['chat:write'];
  return {
    user: OWNER.subject,
    agent: 'helper',
    service: 'slack',
    scopes,
    grantedAt: iso(now - 1000),
    expiresAt: iso(now + HOUR_MS),
  };
}

const credentialSpec = (service: string, more: Spec): Spec => ({
  ...TEAM,
  service,
  type: 'api_key',
  ...more,
});

const approvalSpec = (agent: string): Spec => ({
  agent,
  action: 'delete',
  target: `agent ${agent}`,
  expiresAt: iso(Date.now() + HOUR_MS),
});

function auditorSpec(n: string): Spec {
  const placement = { deploymentMode: 'in-cluster', endpoint: 'http://127.0.0.1:1/', workspaces: [n] };
  return { auditorId: AUDITOR, category: 'security', phase: 'input_guarding', ...placement };
}

const modelSpec = (): Spec => ({
  modelId: MODEL,
  deploymentMode: 'sidecar',
  image: `registry.example/m@${DIGEST}`,
});

const catalogSpec = (): Spec => ({
  displayName: 'Injection',
  category: 'Auditors',
  type: 'auditor',
  auditorId: 'injection',
});

const KINDS = objects('').map(([kind, name]) => [kind, name] as const);

/** The object once its Ready condition is for its current generation. */
async function readyOf(kind: string, name: string): Promise<{ obj: Obj; ready: Cond } | undefined> {
  const obj = await p.get(kind, name);
  const ready = condition(obj, 'Ready');
  if (!obj || !ready || ready.observedGeneration !== obj.metadata.generation) return undefined;
  return { obj, ready };
}

const waitReady = (kind: string, name: string, status?: string) =>
  eventually(
    async () => {
      const r = await readyOf(kind, name);
      return r && (!status || r.ready.status === status) ? r : undefined;
    },
    `${kind} ${name} Ready${status ? `=${status}` : ''}`,
    30_000,
  );

beforeAll(async () => {
  const operator = await startOperator({
    namespace: ns.name,
    identity: 'ready-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
      PLATFORM_MODEL_SERVER_IMAGE: 'example.test/model-server:1',
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
  await p.core.createNamespacedSecret({
    namespace: ns.name,
    body: { metadata: { name: 'jira-token' }, stringData: { token: 'not-a-real-token' } },
  });
  for (const [kind, name, spec, labels] of objects(ns.name)) {
    await p.create(kind, name, spec, labels ? { labels } : {});
  }
});

afterAll(async () => {
  const clusterScoped: [string, string][] = [
    ['Organization', ORG],
    ['AuditorRegistration', AUDITOR],
    ['ModelRegistration', MODEL],
    ['AppCatalogEntry', APP],
  ];
  for (const [kind, name] of clusterScoped) await p.delete(kind, name);
});

describe('every kind reports Ready', () => {
  it('covers all fifteen kinds', () => {
    expect(KINDS.map(([kind]) => kind).sort()).toEqual(ALL_KINDS.map((k) => k.kind).sort());
  });

  it.each(KINDS)(
    '%s %s has a Ready condition with a CamelCase reason, a message and its generation',
    async (kind, name) => {
      const { obj, ready } = await waitReady(kind, name);
      expect(['True', 'False', 'Unknown']).toContain(ready.status);
      expect(ready.reason).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(ready.message?.length).toBeGreaterThan(0);
      expect(ready.observedGeneration).toBe(obj.metadata.generation);
    },
  );

  it('says True where everything the object refers to is there', async () => {
    const expected: [string, string, string][] = [
      ['Organization', ORG, 'Reconciled'],
      ['PlatformWorkspace', 'team', 'Reconciled'],
      ['DelegationGrant', 'grant', 'WithinTTL'],
      ['ConsentRequest', 'consent', 'AwaitingAnswer'],
      ['ScopedCredential', 'jira', 'MaterialPresent'],
      ['AuditorPolicy', 'good', 'Compiled'],
      ['ApprovalRequest', 'approve-delete', 'AwaitingDecision'],
      ['ModelRegistration', MODEL, 'Sidecar'],
      ['AppCatalogEntry', APP, 'Available'],
      ['AgentInstalledApp', 'helper-app', 'Installed'],
    ];
    for (const [kind, name, reason] of expected) {
      const { ready } = await waitReady(kind, name, 'True');
      expect(ready.reason, `${kind} ${name}`).toBe(reason);
    }
    const install = await p.get('AgentInstalledApp', 'helper-app');
    expect(install?.status?.ready).toBe(true);
  });

  it('says False with the reason where something is missing or broken', async () => {
    const probe = await waitReady('AuditorRegistration', AUDITOR, 'False');
    expect(probe.ready).toMatchObject({ reason: 'ProbeFailed' });
    const wf = await waitReady('Workflow', 'flow', 'False');
    expect(wf.ready).toMatchObject({ reason: 'NotDeployed', message: 'the workflow has not been deployed' });
    // No kubelet runs here: the agent's pod and the model's Deployment never become ready.
    expect((await waitReady('PlatformAgent', 'helper', 'False')).ready.reason).toMatch(/^Pod/);
    expect((await waitReady('PlatformEnvironment', 'llm', 'False')).ready.reason).toBe('ModelStarting');
  });
});

describe('not ready, with a clear reason', () => {
  it('an AuditorPolicy whose Cedar does not compile is InvalidPolicy, and Compiled once fixed', async () => {
    await p.create('AuditorPolicy', 'broken', {
      ...TEAM,
      cedar: 'forbid (principal, action, resource) when { context.no_such_claim_score >= 1 };',
    });
    const { ready } = await waitReady('AuditorPolicy', 'broken', 'False');
    expect(ready.reason).toBe('InvalidPolicy');
    expect(ready.message).toContain('no_such_claim_score');
    await p.patch('AuditorPolicy', 'broken', { spec: { cedar: GOOD_CEDAR } });
    const fixed = await waitReady('AuditorPolicy', 'broken', 'True');
    expect(fixed.ready).toMatchObject({ reason: 'Compiled', observedGeneration: 2 });
  });

  it('a ScopedToolInstall is CredentialNotFound until its ScopedCredential exists', async () => {
    const { ready } = await waitReady('ScopedToolInstall', 'github', 'False');
    expect(ready).toMatchObject({
      reason: 'CredentialNotFound',
      message: `ScopedCredential gh does not exist in namespace ${ns.name}`,
    });
    await p.create('ScopedCredential', 'gh', credentialSpec('github', { type: 'oauth_flow' }));
    expect((await waitReady('ScopedToolInstall', 'github', 'True')).ready.reason).toBe('Available');
  });

  it('an ApprovalRequest on an agent that does not exist is AgentNotFound', async () => {
    await p.create('ApprovalRequest', 'orphan', approvalSpec('ghost'));
    const { ready } = await waitReady('ApprovalRequest', 'orphan', 'False');
    expect(ready).toMatchObject({
      reason: 'AgentNotFound',
      message: `PlatformAgent ghost does not exist in namespace ${ns.name}`,
    });
  });

  it('kubectl get shows the Ready column', () => {
    const kubectl = findBinary('kubectl');
    if (!kubectl) throw new Error('kubectl is not built (npm run control-plane:build)');
    const out = execFileSync(
      kubectl,
      ['--kubeconfig', inject('kubeconfigPath'), 'get', 'scopedtoolinstalls,auditorpolicies', '-n', ns.name],
      { encoding: 'utf8' },
    );
    expect(out).toMatch(/^NAME\s+TOOL\s+SCOPE\s+ENFORCEMENT\s+READY\s+AGE$/m);
    expect(out).toMatch(
      /^scopedtoolinstall\.platform\.io\/github\s+github\s+workspace\s+available\s+True\s/m,
    );
    expect(out).toMatch(/^NAME\s+SCOPE\s+SCOPE ID\s+VERSION\s+READY\s+AGE$/m);
    expect(out).toMatch(/^auditorpolicy\.platform\.io\/good\s+workspace\s+team\s+True\s/m);
  });
});

describe("the API's decision and the operator's Ready write", () => {
  it('records a decision made on a version the operator has since written Ready on', async () => {
    const writer = clusterWriter(kubeConfig());
    const name = 'approve-delete';
    const stale = (await writer.readApproval(ns.name, name)) as ApprovalRequest;
    // What the operator does between the API's read and its write: a status write of its own.
    await p.patchStatus('ApprovalRequest', name, { phase: 'pending' });
    const rc = { deps: { writer } } as unknown as RouteCtx;
    const stored = await recordDecision(rc, stale, { phase: 'approved', decidedBy: 'bob@example.com' });
    expect(stored.status).toMatchObject({ phase: 'approved', decidedBy: 'bob@example.com' });
    expect((await waitReady('ApprovalRequest', name, 'True')).ready.reason).toBe('Approved');
    // A request decided in between is a conflict, not a second decision.
    const err = await recordDecision(rc, stale, { phase: 'denied', decidedBy: 'carol@example.com' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 409, code: 'already_decided' });
  });
});
