// The checks of an installed platform, the same for each install variant
// (test/install/variants.ts): the three roles running from the local image
// (the operator's 2 replicas and one leader, the webhook's own certificate,
// the Verifier at its ClusterIP), `kubectl apply -f config/samples/` with every
// agent pod admitted with its sidecars and running, one governed call to
// signed Evidence at the installed Verifier, and an uninstall that leaves
// nothing of the platform behind. Each prints how long its part took.
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { askAgent, containerNames, listAgents, waitAgentReady, type AgentRef } from './agents.ts';
import { NAMESPACE, api, eventually, forgetVerifier, kubectl, kubectlJson, secondsSince } from './support.ts';
import type { Variant } from './variants.ts';

const SAMPLES = join(REPO_ROOT, 'config', 'samples');
const ROLES = ['platform-operator', 'platform-webhook', 'platform-verifier'];
const RELEASE_BOT: AgentRef = { namespace: 'default', name: 'release-bot' };
const BENIGN = 'What is 2+2?';

interface Deployment {
  metadata: { name: string };
  spec: { replicas: number };
  status?: { readyReplicas?: number; conditions?: { type: string; status: string }[] };
}
interface Lease {
  metadata: { name: string };
  spec: { holderIdentity?: string };
}
interface WebhookConfiguration {
  webhooks: { name: string; clientConfig: { caBundle?: string } }[];
}

const available = (d: Deployment): boolean =>
  d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true &&
  d.status.readyReplicas === d.spec.replicas;

function deployments(namespace: string): Deployment[] {
  return kubectlJson<{ items: Deployment[] }>(['-n', namespace, 'get', 'deployments']).items;
}

const podNames = (namespace: string, app: string): string[] =>
  kubectl(['-n', namespace, 'get', 'pods', '-l', `app.kubernetes.io/name=${app}`, '-o', 'name'])
    .split('\n')
    .filter(Boolean)
    .map((n) => n.replace(/^pod\//, ''));

/** The CA bundle of each webhook of a configuration (decoded). */
const caBundles = (kind: string, name: string): string[] =>
  kubectlJson<WebhookConfiguration>(['get', kind, name]).webhooks.map((w) =>
    Buffer.from(w.clientConfig.caBundle ?? '', 'base64').toString('utf8'),
  );

/** What is left of the platform anywhere in the cluster (kinds and names), after an uninstall. */
function leftovers(): string[] {
  const out = kubectl([
    'get',
    'pods,deployments,services',
    '-A',
    '-o',
    'custom-columns=KIND:.kind,NS:.metadata.namespace,NAME:.metadata.name',
    '--no-headers',
  ]);
  const mine = out
    .split('\n')
    .filter(Boolean)
    // The apiserver's own Service stays.
    .filter((l) => !/^Service\s+default\s+kubernetes$/.test(l.trim()));
  const crds = kubectl(['get', 'crd', '-o', 'name'])
    .split('\n')
    .filter((n) => n.includes('platform.io'));
  const hooks = kubectl([
    'get',
    'mutatingwebhookconfigurations,validatingwebhookconfigurations',
    '-o',
    'name',
  ])
    .split('\n')
    .filter(Boolean);
  const namespaces = kubectl(['get', 'namespaces', '-o', 'name'])
    .split('\n')
    .filter((n) => /platform|local-model/.test(n));
  return [...mine, ...crds, ...hooks, ...namespaces];
}

/** What the local model answers when asked directly at its ClusterIP (Services answer from the host). */
async function directModelAnswer(model: string, prompt: string): Promise<string> {
  const ip = kubectlJson<{ spec: { clusterIP: string } }>([
    '-n',
    'local-model',
    'get',
    'service',
    'local-model',
  ]).spec.clusterIP;
  const res = await fetch(`http://${ip}:11434/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await res.json()) as { choices: { message: { content: string } }[] };
  return answer.choices[0]?.message.content ?? '';
}

/** The last lines of the agent's and its gateway's logs: what a failed call says. */
function callLogs(): string {
  return ['agent', 'platform-gateway', 'auditor-llm-judge']
    .map((c) => {
      const out = kubectl(['-n', 'default', 'logs', 'agent-release-bot', '-c', c, '--tail=15']);
      return `--- ${c}\n${out}`;
    })
    .join('\n');
}

/** Exactly one operator replica holds the leader Lease. */
function expectOneLeader(): void {
  const operators = podNames(NAMESPACE, 'platform-operator');
  const leases = kubectlJson<{ items: Lease[] }>(['-n', NAMESPACE, 'get', 'leases']).items;
  const holders = leases.map((l) => l.spec.holderIdentity ?? '');
  expect(holders.filter((h) => operators.some((p) => h.includes(p)))).toHaveLength(1);
}

/** The webhook wrote its CA into both configurations (dev's failurePolicy Ignore would hide a broken one). */
function expectWebhookCertificate(): void {
  const bundles = [
    ...caBundles('mutatingwebhookconfiguration', 'platform-mutating-webhook'),
    ...caBundles('validatingwebhookconfiguration', 'platform-validating-webhook'),
  ];
  expect(bundles).toHaveLength(3);
  for (const pem of bundles) expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
  kubectl(['-n', NAMESPACE, 'get', 'secret', 'platform-webhook-tls']);
}

/** Installs `variant` and sees the three roles (and the local model) running from the local image. */
export async function installsTheRoles(variant: Variant): Promise<void> {
  const started = Date.now();
  forgetVerifier();
  variant.install();
  const ready = await eventually(() => {
    const all = [...deployments(NAMESPACE), ...deployments('local-model')];
    return all.length === ROLES.length + 1 && all.every(available) ? all : undefined;
  }, 'the platform Deployments Available');
  console.log(`[install] ${variant.installs} to every Deployment Available: ${secondsSince(started)} s`);
  expect(ready.map((d) => d.metadata.name)).toEqual(expect.arrayContaining(ROLES));
  expect(ready.find((d) => d.metadata.name === 'platform-operator')?.status?.readyReplicas).toBe(2);
  expectOneLeader();
  expectWebhookCertificate();
  const readyz = await eventually(
    async () => ((await api('/v1/agents')).status === 200 ? true : undefined),
    'the Verifier API answering at its ClusterIP',
  );
  expect(readyz).toBe(true);
}

/** `kubectl apply -f config/samples/`: every agent pod admitted with its sidecars and Running. */
export async function runsTheSamples(): Promise<void> {
  const started = Date.now();
  kubectl(['apply', '-f', SAMPLES]);
  const agents = await eventually(async () => {
    const list = await listAgents();
    return list.length >= 3 ? list : undefined;
  }, 'the sample agents');
  for (const agent of agents) {
    const ref = { namespace: agent.metadata.namespace, name: agent.metadata.name };
    const pod = await waitAgentReady(ref);
    const names = containerNames(pod);
    expect(names, `${ref.namespace}.${ref.name}`).toEqual(
      expect.arrayContaining(['platform-init', 'platform-gateway', 'platform-credential-proxy', 'agent']),
    );
    expect(names.filter((n) => n.startsWith('auditor-')).length).toBeGreaterThanOrEqual(2);
  }
  console.log(
    `[install] kubectl apply -f config/samples to ${agents.length} agents Ready: ${secondsSince(started)} s`,
  );
}

/** One call through release-bot's pod: allowed, answered by the model, signed Evidence at the Verifier. */
export async function governsACall(): Promise<void> {
  const pod = await waitAgentReady(RELEASE_BOT);
  const { http, body } = await askAgent(pod, BENIGN);
  expect(http, `${JSON.stringify(body)}\n${http === 200 ? '' : callLogs()}`).toBe(200);
  expect(body.decision).toBe('allow');
  // The local model's own answer: the call reached the model, past the gateway and its auditors.
  expect(body.answer).toBe(await directModelAnswer('gpt-4o-mini', BENIGN));
  expect(body.evidence_id).toMatch(/\S/);
  const entry = await eventually(async () => {
    const r = await api<{ items: Record<string, unknown>[] }>(`/v1/agents/default.release-bot/evidence`);
    return r.body.items?.find((e) => e.evidence_id === body.evidence_id);
  }, `Evidence ${body.evidence_id} at the Verifier`);
  // Accepted only with a valid signature by the pod's gateway key: its result and tier say so.
  expect(entry.decision).toBe('allow');
  expect(entry.signature).toMatch(/\S/);
  expect(entry.attestation_result).toMatchObject({ signature: 'valid' });
  expect(entry.trust_tier).toMatch(/^(tee_attested|mtls_verified|key_authenticated)$/);
  expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
}

/** The samples, then `variant`'s uninstall; nothing of the platform is left anywhere. */
export async function uninstallsCleanly(variant: Variant): Promise<void> {
  const started = Date.now();
  // The operator removes its finalizers while it still runs, so the samples go first.
  kubectl(['delete', '-f', SAMPLES, '--wait=true', '--timeout=240s']);
  variant.uninstall();
  console.log(
    `[install] kubectl delete -f config/samples, ${variant.uninstalls}: ${secondsSince(started)} s`,
  );
  // Pods and namespaces finish terminating after the objects that own them are gone.
  const left = await eventually(() => {
    const found = leftovers();
    return found.length === 0 ? found : undefined;
  }, 'nothing of the platform left').catch(() => leftovers());
  expect(left).toEqual([]);
}
