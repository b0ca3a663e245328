// RBAC proven minimal (issue 23): the three roles run on a control plane of their own
// with the apiserver's audit log on, each as its ServiceAccount (impersonation): the
// webhook issues its certificate and writes both caBundles, then admits the samples'
// pods; the operator reconciles config/samples (organisation, workspace, agents and
// their pods, credentials, tool installs, environment, registrations) and repairs what an
// administrator leaves (rbac-cluster-flows.ts); the Verifier API serves its main routes
// (rbac-flows.ts) and a second replica rotates the trust-domain keys. Then the audit log,
// per ServiceAccount: no request was refused, every request is authorized by config/rbac's
// rules for that role, and every rule those grant was used (but NOT_REACHED). The
// used-versus-granted tables are printed.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnlessExists, k8s } from '../../base/kube.ts';
import { createLogger } from '../../base/log.ts';
import { startApi, type RunningApi } from '../../api/run.ts';
import { loadApiSettings } from '../../api/settings.ts';
import { freePort } from '../../hack/control-plane/control-plane.ts';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { kustomizeBuild, parseObjects } from '../unit/kustomize-build.ts';
import type { K8sObject } from '../unit/kustomize-tree.ts';
import {
  accessesOf,
  coverage,
  forbiddenOf,
  formatCoverage,
  grantKey,
  grantsOf,
  serviceAccountUser,
} from '../unit/rbac-coverage.ts';
import { eventually } from './harness.ts';
import { startRole, type OperatorProcess } from './operator-process.ts';
import { onLoopback, startAuditedPlane, type AuditedPlane } from './rbac-plane.ts';
import { runApiFlows, type ApiClient } from './rbac-flows.ts';
import { changeSamples, operatorRepairs, webhookFlows } from './rbac-cluster-flows.ts';

const NS = 'platform-system';
const ROLES = {
  operator: 'platform-operator',
  webhook: 'platform-webhook',
  api: 'platform-verifier',
} as const;
type Role = keyof typeof ROLES;
/** A role's first start compiles its sources through tsx: slow on a loaded machine. */
const LISTEN_TIMEOUT_MS = 90_000;
const user = (role: Role): string => serviceAccountUser(NS, ROLES[role]);

/**
 * Grants this run does not reach, each needed by code docs/rbac.md names (decision 257):
 * admission-time checks the audit log cannot show, reads that only happen before a cache
 * syncs, the console's paths that need a kubelet. A grant not listed must be used; the list
 * only shrinks (issue 23: every granted verb used).
 */
const NOT_REACHED: Record<Role, string[]> = {
  operator: [
    'ClusterRole/platform-operator platform.io platformagents/finalizers update',
    'ClusterRole/platform-operator platform.io platformenvironments/finalizers update',
    'ClusterRole/platform-operator platform.io platformworkspaces/finalizers update',
  ],
  webhook: [
    // Live reads before the admission caches sync: used in some runs, not others.
    'ClusterRole/platform-webhook core namespaces get',
    'ClusterRole/platform-webhook core configmaps get',
    'ClusterRole/platform-webhook platform.io platformworkspaces get',
  ],
  api: [
    // A server-side apply that creates the object is authorized as create inside its patch request:
    // the audit log shows the patch only (POST /v1/definitions/apply, decision 285).
    'ClusterRole/platform-verifier platform.io platformworkspaces create',
    'ClusterRole/platform-verifier platform.io platformenvironments create',
    'ClusterRole/platform-verifier core pods list',
    'ClusterRole/platform-verifier core pods/exec get',
    'ClusterRole/platform-verifier core pods/exec create',
    'ClusterRole/platform-verifier core pods/log get',
    'ClusterRole/platform-verifier core nodes/proxy get',
  ],
};

let cp: AuditedPlane;
let rbac: K8sObject[];
let api: RunningApi;
const procs: OperatorProcess[] = [];

const custom = (): k8s.CustomObjectsApi => cp.admin.makeApiClient(k8s.CustomObjectsApi);
const core = (): k8s.CoreV1Api => cp.admin.makeApiClient(k8s.CoreV1Api);

function samples(): K8sObject[] {
  const dir = join(REPO_ROOT, 'config', 'samples');
  return readdirSync(dir)
    .sort()
    .flatMap((f) => parseObjects(readFileSync(join(dir, f), 'utf8')));
}

async function startWebhook(): Promise<void> {
  const port = await freePort();
  cp.apply(onLoopback(parseObjects(kustomizeBuild('webhook')), port));
  procs.push(
    await startRole(
      'webhook',
      'rbac-webhook',
      {
        KUBECONFIG: cp.impersonating(user('webhook')).path,
        PLATFORM_NAMESPACE: NS,
        PLATFORM_LEADER_ELECTION: 'true',
        PLATFORM_WEBHOOK_HOST: '127.0.0.1',
        PLATFORM_WEBHOOK_PORT: String(port),
        PLATFORM_WEBHOOK_METRICS_PORT: '0',
        PLATFORM_WEBHOOK_EXTRA_SANS: '127.0.0.1',
        PLATFORM_STRICT_NOTARIZATION: 'false',
        PLATFORM_VERIFIER_URL: api.url,
      },
      LISTEN_TIMEOUT_MS,
    ),
  );
  const adm = cp.admin.makeApiClient(k8s.AdmissionregistrationV1Api);
  await eventually(
    async () => {
      const m = await adm.readMutatingWebhookConfiguration({ name: 'platform-mutating-webhook' });
      const v = await adm.readValidatingWebhookConfiguration({ name: 'platform-validating-webhook' });
      const hooks = [...(m.webhooks ?? []), ...(v.webhooks ?? [])];
      return hooks.every((h) => h.clientConfig.caBundle) ? true : undefined;
    },
    'the webhook to write both caBundles',
    60_000,
  );
}

/** A Verifier as the api role; `env` adds to its settings. */
function verifier(env: Record<string, string> = {}): Promise<RunningApi> {
  const dir = mkdtempSync(join(tmpdir(), 'rbac-api-'));
  const settings = loadApiSettings(
    {
      PLATFORM_API_PORT: '0',
      PLATFORM_API_METRICS_PORT: '0',
      PLATFORM_API_HOST: '127.0.0.1',
      PLATFORM_API_NAMESPACE: NS,
      PLATFORM_API_AUDIT_LOG: join(dir, 'audit.jsonl'),
      PLATFORM_EVIDENCE_FILE: join(dir, 'evidence.jsonl'),
      ...env,
    },
    {},
  );
  return startApi({
    kc: cp.impersonating(user('api')).kc,
    settings,
    log: createLogger('api', { level: 'warn' }),
  });
}

async function startVerifier(): Promise<void> {
  api = await verifier();
  await Promise.all(api.informers.all.map((i) => i.waitForSync(30_000)));
}

/** The trust-domain keys a Verifier keeps (decision 133), as the trust domains they sign for. */
async function trustDomains(): Promise<string[]> {
  const secret = await core()
    .readNamespacedSecret({ namespace: NS, name: 'platform-trust-domain-keys' })
    .catch(() => undefined);
  const raw = secret?.data?.['keys.json'];
  if (!raw) return [];
  return (JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { trustDomain: string }[]).map(
    (k) => k.trustDomain,
  );
}

async function startOperator(): Promise<void> {
  procs.push(
    await startRole(
      'operator',
      'rbac-operator',
      {
        KUBECONFIG: cp.impersonating(user('operator')).path,
        PLATFORM_OPERATOR_METRICS_PORT: '0',
        PLATFORM_LEADER_ELECTION: 'true',
        PLATFORM_LEADER_ELECTION_NAMESPACE: NS,
        PLATFORM_OPERATOR_IDENTITY: 'rbac-operator',
        PLATFORM_API_NAMESPACE: NS,
        PLATFORM_KEYRING_SECRET: `${NS}/platform-keyring`,
      },
      LISTEN_TIMEOUT_MS,
    ),
  );
}

beforeAll(async () => {
  cp = await startAuditedPlane((line) => console.log(`[rbac control-plane] ${line}`));
  cp.apply(parseObjects(kustomizeBuild('crds')));
  await createUnlessExists(core().createNamespace({ body: { metadata: { name: NS } } }));
  rbac = parseObjects(kustomizeBuild('rbac'));
  cp.apply(rbac);
  await startVerifier();
  await startWebhook();
  await startOperator();
}, 240_000);

afterAll(async () => {
  for (const p of procs) await p.stop();
  await api?.stop();
  await cp?.plane.stop();
});

interface Agent {
  metadata: { name: string; namespace: string };
  status?: { conditions?: { type: string; status: string }[] };
}

describe('the roles as their ServiceAccounts, with the audit log on', () => {
  it('reconciles the samples: agents get injected pods, the environment its model server', async () => {
    cp.apply(samples());
    const pods = await eventually(
      async () => {
        const list = await core().listNamespacedPod({ namespace: 'default' });
        return list.items.length >= 3 ? list.items : undefined;
      },
      'the sample agents’ pods',
      90_000,
    );
    for (const pod of pods) {
      const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(['platform-gateway', 'agent']));
    }
    const apps = cp.admin.makeApiClient(k8s.AppsV1Api);
    await eventually(
      async () => (await apps.listNamespacedDeployment({ namespace: 'default' })).items[0],
      'the environment’s model server',
      60_000,
    );
    const agents = (await custom().listNamespacedCustomObject({
      group: 'platform.io',
      version: 'v1alpha1',
      namespace: 'default',
      plural: 'platformagents',
    })) as { items: Agent[] };
    expect(agents.items.map((a) => a.metadata.name).sort()).toEqual(['release-bot', 'summarizer', 'triager']);
  });

  it('webhook: records an Event for a pod it does not inject, rewrites a certificate that misses its names', async () => {
    await webhookFlows(cp.admin, { namespace: NS, name: 'platform-webhook-tls' });
  });

  it('follows changes: a workspace drops an agent, an environment changes, an org needs a home, an agent goes', async () => {
    await changeSamples(cp.admin);
  });

  it('operator: patches an edited Service back, replaces a headless one, re-issues a stale SVID', async () => {
    await operatorRepairs(cp.admin);
  });

  // About 4 s alone, but eight flows each waiting on the operator: one CI run beside the other
  // integration files passed 60 s (a hang guard, not a speed check).
  it('serves the Verifier API’s main routes', async () => {
    const client: ApiClient = { url: api.url, bootstrapKey: await bootstrapKey(), admin: cp.admin };
    await runApiFlows(client);
  }, 240_000);

  it('a Verifier replica started with a new trust domain rotates the trust-domain keys in place', async () => {
    expect(
      await eventually(
        async () => ((await trustDomains()).length ? trustDomains() : undefined),
        'the keys',
        30_000,
      ),
    ).not.toContain('rotated.example');
    const replica = await verifier({ PLATFORM_TRUST_DOMAIN: 'rotated.example' });
    try {
      await eventually(
        async () => ((await trustDomains()).includes('rotated.example') ? true : undefined),
        'the rotated trust-domain key',
        30_000,
      );
    } finally {
      await replica.stop();
    }
  });

  it.each(Object.keys(ROLES) as Role[])(
    '%s: nothing refused, everything used is granted, everything granted is used',
    (role) => {
      const events = cp.audit();
      const accesses = accessesOf(events, user(role));
      const c = coverage(grantsOf(rbac, NS, ROLES[role]), accesses);
      console.log(formatCoverage(`${role} (${user(role)}, ${accesses.length} requests)`, c));
      expect(forbiddenOf(events, user(role)).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
      expect(c.ungranted.map((a) => `${a.verb} ${a.resource} ${a.uri}`)).toEqual([]);
      const unused = c.grants.filter((g) => g.uses === 0).map((g) => grantKey(g.grant));
      console.log(`${role}: granted, not reached by these flows (docs/rbac.md): ${unused.length}`);
      expect(unused.filter((k) => !NOT_REACHED[role].includes(k))).toEqual([]);
    },
  );
});

async function bootstrapKey(): Promise<string> {
  const secret = await core().readNamespacedSecret({ namespace: NS, name: 'platform-api-bootstrap' });
  return Buffer.from(secret.data?.['api-key'] ?? '', 'base64').toString('utf8');
}
