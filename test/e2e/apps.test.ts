// The app catalog on a real node: installing an auditor app replaces the
// agent's pod with one that runs the auditor's sidecar, ready, and the next
// call's Evidence carries its claims; a third-party auditor started as its
// own process registers itself through an agent's gateway, is listed with its
// real vocabulary, and once installed is called by the gateway at its
// endpoint (no sidecar).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { hostAddress } from '../../hack/system/roles.ts';
import { agentId, askAgent, readAgent, waitAgentReady, type AgentRef } from './agents.ts';
import { api, eventually, kubeConfig, kubectl, kubectlOk, topology } from './support.ts';
import { k8s } from '../../base/kube.ts';

const APP_BOT: AgentRef = { namespace: 'e2e-apps', name: 'app-bot' };
const KEYWORD_ID = 'keyword-e2e';
const KEYWORD_APP = `registered-${KEYWORD_ID}`;
const PROMPT = 'What is the secret of a good password?';

type Pod = k8s.V1Pod;

interface EvidenceBody {
  evidence_id: string;
  auditors?: { auditor_id: string; status: string; claims: string[] }[];
}

/** A timeline entry: the Evidence itself, or wrapped with its verification. */
type EvidenceEntry = Partial<EvidenceBody> & { evidence?: EvidenceBody };

const sidecarNames = (pod: Pod): string[] =>
  [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]
    .map((c) => c.name)
    .filter((n) => n.startsWith('auditor-'));

const gatewayEnv = (pod: Pod, name: string): k8s.V1EnvVar | undefined =>
  [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]
    .find((c) => c.name === 'platform-gateway')
    ?.env?.find((e) => e.name === name);

async function install(appId: string): Promise<void> {
  const r = await api(`/v1/app-catalog/agents/${agentId(APP_BOT)}/install`, {
    method: 'POST',
    body: JSON.stringify({ app_id: appId }),
  });
  expect([200, 201], JSON.stringify(r.body)).toContain(r.status);
}

/** The agent's pod once it was rebuilt for a chain holding `auditor`, and is Ready. */
async function podWithChain(auditor: string, previousUid: string | undefined): Promise<Pod> {
  await eventually(
    async () => {
      const agent = (await readAgent(APP_BOT)) as { status?: { chain?: string[] } };
      return agent.status?.chain?.includes(auditor) ? true : undefined;
    },
    `${auditor} in the chain of ${agentId(APP_BOT)}`,
  );
  return eventually(
    async () => {
      const pod = await waitAgentReady(APP_BOT);
      return pod.metadata?.uid !== previousUid ? pod : undefined;
    },
    `the pod of ${agentId(APP_BOT)} replaced`,
    300_000,
  );
}

/** The auditors of the Evidence a call left, once the timeline has it. */
async function auditorsOf(evidenceId: string): Promise<Map<string, { status: string; claims: string[] }>> {
  const entry = await eventually(async () => {
    const r = await api<{ items?: EvidenceEntry[] }>(`/v1/agents/${agentId(APP_BOT)}/evidence`);
    return (r.body.items ?? []).find((e) => (e.evidence_id ?? e.evidence?.evidence_id) === evidenceId);
  }, `Evidence ${evidenceId}`);
  return new Map(((entry.evidence ?? entry).auditors ?? []).map((a) => [a.auditor_id, a]));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '0.0.0.0', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function gatewayKeyOf(pod: Pod): Promise<string> {
  const ref = gatewayEnv(pod, 'PLATFORM_API_KEY')?.valueFrom?.secretKeyRef;
  if (!ref?.name) throw new Error('the gateway names no API key Secret');
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const secret = await core.readNamespacedSecret({ namespace: APP_BOT.namespace, name: ref.name });
  return Buffer.from(secret.data?.[ref.key] ?? '', 'base64').toString('utf8');
}

let auditorProcess: ChildProcess | undefined;

beforeAll(() => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'app-bot.yaml')]);
});

// Gone before the next file runs: the other files look at every agent in the cluster.
afterAll(() => {
  auditorProcess?.kill('SIGTERM');
  kubectl([
    '-n',
    APP_BOT.namespace,
    'delete',
    'platformagent',
    APP_BOT.name,
    '--wait=true',
    '--timeout=100s',
  ]);
  kubectl(['delete', 'namespace', APP_BOT.namespace, '--wait=true', '--timeout=100s']);
  kubectl(['delete', 'auditorregistration', KEYWORD_ID, '--ignore-not-found']);
});

describe('the app catalog on a real node', () => {
  it('installs a built-in auditor app: a ready sidecar in the new pod, its claims in the next Evidence', async () => {
    const before = await waitAgentReady(APP_BOT);
    expect(sidecarNames(before)).not.toContain('auditor-toxicity');
    await install('builtin-toxicity');
    const pod = await podWithChain('toxicity', before.metadata?.uid);
    expect(sidecarNames(pod)).toContain('auditor-toxicity');
    const status = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
    ].find((s) => s.name === 'auditor-toxicity');
    expect(status?.ready, 'the toxicity sidecar is ready').toBe(true);
    const { http, body } = await askAgent(pod, PROMPT);
    expect(http).toBe(200);
    const toxicity = (await auditorsOf(body.evidence_id!)).get('toxicity');
    expect(toxicity?.status).toBe('ok');
    expect(toxicity?.claims.length).toBeGreaterThan(0);
  });

  it('lets a third-party auditor process register through a gateway, and calls it at its endpoint once installed', async () => {
    const pod = await waitAgentReady(APP_BOT);
    const port = await freePort();
    const endpoint = `http://${hostAddress(topology())}:${port}`;
    auditorProcess = spawn(process.execPath, ['--import', 'tsx', 'test/e2e/fixtures/keyword-auditor.ts'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '',
        PLATFORM_GATEWAY_URL: `http://${pod.status?.podIP}:8099`,
        PLATFORM_API_KEY: await gatewayKeyOf(pod),
        PLATFORM_AUDITOR_ID: KEYWORD_ID,
        PLATFORM_AUDITOR_ENDPOINT: endpoint,
        TEE_PROVIDER: 'MOCK',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
    });
    // Registered through the gateway, with the vocabulary the Verifier fetched from the process itself.
    const listed = await eventually(async () => {
      const r = await api<{
        items?: { auditor_id: string; endpoint?: string; claims?: { name: string }[] }[];
      }>('/v1/auditors');
      return (r.body.items ?? []).find((a) => a.auditor_id === KEYWORD_ID);
    }, `${KEYWORD_ID} registered`);
    expect(listed.endpoint).toBe(endpoint);
    expect((listed.claims ?? []).map((c) => c.name).sort()).toEqual(['keyword_detected', 'keyword_score']);

    // Registered, it is in the app catalog as an auditor app of its own.
    await eventually(async () => {
      const r = await api(`/v1/app-catalog/${KEYWORD_APP}`);
      return r.status === 200 ? true : undefined;
    }, `${KEYWORD_APP} in the catalog`);
    await install(KEYWORD_APP);
    const wired = await podWithChain(KEYWORD_ID, pod.metadata?.uid);
    expect(sidecarNames(wired)).not.toContain(`auditor-${KEYWORD_ID}`);
    expect(gatewayEnv(wired, 'PLATFORM_CHAIN')?.value).toContain(`${KEYWORD_ID}=${endpoint}`);
    const { http, body } = await askAgent(wired, PROMPT);
    expect(http).toBe(200);
    const auditors = await auditorsOf(body.evidence_id!);
    const keyword = auditors.get(KEYWORD_ID);
    expect(keyword, JSON.stringify([...auditors.values()])).toMatchObject({ status: 'ok' });
    expect([...(keyword?.claims ?? [])].sort()).toEqual(['keyword_detected', 'keyword_score']);
  });
});
