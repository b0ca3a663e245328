// A secured agent pod never runs un-injected, on the real control plane with
// a running operator process: a standalone agent's namespace gets the
// webhook label before its pod; a pod admitted without the webhook's
// injection record (here: no webhook registered yet, as when the namespace
// was not selected) is deleted and re-created with a growing delay, with
// SidecarsInjected=False, Ready=False and Events saying why; once the webhook
// injects, everything recovers. Then: a crashing sidecar and a stale node in
// Ready, and an unreachable webhook (failurePolicy Fail) in the conditions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { k8s } from '../../base/kube.ts';
import { startWebhookApp, type WebhookApp } from '../../webhooks/app.ts';
import { quietLogger, testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import { eventually, kubeConfig, registerWebhooks, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition, mergePatch } from './platform-client.ts';

const ns = useNamespace('agent-injection');
const p = new Platform(() => ns.name);
const POD = 'agent-solo';
const STATUS_ANNOTATION = 'platform.computing/injection-status';
let operator: OperatorProcess;
let app: WebhookApp | undefined;
let unregister: (() => Promise<void>) | undefined;

const podCreates = (): Promise<number> =>
  operator.metric('platform_controller_object_writes_total', { kind: 'Pod', verb: 'create' });

async function agentCondition(type: string, status: string, reason: string): Promise<string> {
  const agent = await eventually(
    () => p.withCondition('PlatformAgent', 'solo', { type, status, reason }),
    `${type}=${status} (${reason})`,
    45_000,
  );
  return condition(agent, type)?.message ?? '';
}

/** The webhook of this file, in-process, registered for this file's namespace with failurePolicy Fail. */
async function startWebhook(): Promise<void> {
  app = await startWebhookApp({
    kc: kubeConfig(),
    log: quietLogger(),
    instance: 'agent-injection-test',
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
      manage: true,
      isLeader: () => true,
    },
  });
  const secret = await p.core.readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
  unregister = await registerWebhooks(ns, [
    {
      kind: 'mutating',
      url: `https://127.0.0.1:${app.server.port}/mutate`,
      caBundlePem: Buffer.from(secret.data?.['ca.crt'] ?? '', 'base64').toString(),
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      objectSelector: { matchLabels: { 'platform.io/secured': 'true' } },
    },
  ]);
  // Registration takes effect asynchronously: wait until a dry-run pod comes back injected.
  await eventually(async () => {
    const probe = await p.core.createNamespacedPod({
      namespace: ns.name,
      dryRun: 'All',
      body: {
        metadata: { name: 'probe', labels: { 'platform.io/secured': 'true' } },
        spec: { containers: [{ name: 'agent', image: 'registry.example/agent:1' }] },
      },
    });
    return probe.metadata?.annotations?.[STATUS_ANNOTATION] ? true : undefined;
  }, 'the webhook to take effect');
}

const running = (name: string, ready = true): k8s.V1ContainerStatus => ({
  name,
  ready,
  restartCount: 0,
  image: 'registry.example/x:1',
  imageID: '',
  state: { running: { startedAt: new Date() } },
});

/** A native sidecar (restartPolicy Always) keeps running; any other init container has completed. */
const initStatus = (c: k8s.V1Container): k8s.V1ContainerStatus =>
  c.restartPolicy === 'Always'
    ? running(c.name)
    : { ...running(c.name), state: { terminated: { exitCode: 0, reason: 'Completed' } } };

/** Writes a kubelet-like status: every container running and ready unless overridden. */
async function setPodStatus(
  ready: { type: 'Ready'; status: 'True' | 'False'; reason?: string; message?: string },
  override: Record<string, k8s.V1ContainerStatus> = {},
): Promise<void> {
  const spec = (await p.pod(POD))?.spec;
  const init = (spec?.initContainers ?? []).map((c) => override[c.name] ?? initStatus(c));
  const main = (spec?.containers ?? []).map((c) => override[c.name] ?? running(c.name));
  await p.core.patchNamespacedPodStatus(
    {
      namespace: ns.name,
      name: POD,
      body: {
        status: {
          phase: 'Running',
          conditions: [ready],
          initContainerStatuses: init,
          containerStatuses: main,
        },
      },
    },
    mergePatch,
  );
}

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'agent-injection-operator',
    env: {
      PLATFORM_AGENT_REQUIRE_INJECTION: 'true',
      PLATFORM_CONTROLLER_RESYNC_INTERVAL: '2s',
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

afterAll(async () => {
  await unregister?.();
  await app?.close();
});

describe('a secured agent pod the webhook did not inject', () => {
  it('labels the namespace first, then deletes the un-injected pod, says why and backs off instead of spinning', async () => {
    await p.create('PlatformAgent', 'solo', { owners: [{ subject: 'alice@example.com', role: 'Owner' }] });
    const message = await agentCondition('SidecarsInjected', 'False', 'InjectionMissing');
    expect(message).toMatch(
      /^pod agent-solo is labelled platform.io\/secured=true but carries no platform.computing\/injection-status: the mutating webhook did not inject it .*; deleted it \(\d+ in a row\)/,
    );
    const namespace = await p.core.readNamespace({ name: ns.name });
    expect(namespace.metadata?.labels?.['platform.computing/enabled']).toBe('true');
    const agent = await p.get('PlatformAgent', 'solo');
    expect(condition(agent, 'Ready')).toMatchObject({ status: 'False', reason: 'InjectionMissing' });
    expect(agent?.status?.phase).toBe('pending');
    const reasons = await p.eventReasons('solo');
    expect(reasons).toContain('NamespaceEnabled');
    expect(reasons).toContain('InjectionMissing');

    // The webhook keeps not injecting: 5 s, 10 s, 20 s … between attempts, not a loop.
    const before = await podCreates();
    await new Promise((r) => setTimeout(r, 8_000));
    expect((await podCreates()) - before).toBeLessThanOrEqual(2);
    expect(operator.child.exitCode).toBeNull();
  });

  it('gets an injected pod once the webhook selects the namespace, and SidecarsInjected recovers', async () => {
    await startWebhook();
    const message = await agentCondition('SidecarsInjected', 'True', 'Injected');
    expect(message).toBe(
      'the webhook injected auditors injection, toxicity, model-context, llm-judge (mode enforce, chain from annotation:auditor-chain)',
    );
    const pod = await p.pod(POD);
    expect(pod?.metadata?.annotations?.[STATUS_ANNOTATION]).toBeDefined();
    expect((pod?.spec?.initContainers ?? []).map((c) => c.name)).toContain('auditor-llm-judge');
    expect(await p.eventReasons('solo')).toContain('Injected');
  });
});

describe('the agent pod not ready', () => {
  it('names a crashing sidecar in Ready, and Ready follows the pod when it is ready again', async () => {
    await setPodStatus({ type: 'Ready', status: 'True' });
    await agentCondition('Ready', 'True', 'PodRunning');
    const crash: k8s.V1ContainerStatus = {
      ...running('auditor-llm-judge', false),
      restartCount: 3,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
    };
    await setPodStatus(
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
      { 'auditor-llm-judge': crash },
    );
    const message = await agentCondition('Ready', 'False', 'SidecarNotReady');
    expect(message).toBe(
      'the agent pod is running but not ready: auditor-llm-judge (injected): waiting: CrashLoopBackOff ' +
        '(back-off 40s restarting failed container), 3 restarts',
    );
    expect((await p.get('PlatformAgent', 'solo'))?.status?.phase).toBe('running');
    expect(await p.eventReasons('solo')).toContain('SidecarNotReady');
    await setPodStatus({ type: 'Ready', status: 'True' });
    await agentCondition('Ready', 'True', 'PodRunning');
  });

  it('shows the pod not ready while its node stops reporting (stale container statuses), and recovers', async () => {
    await setPodStatus({ type: 'Ready', status: 'False', reason: 'NodeNotReady', message: 'runtime down' });
    const message = await agentCondition('Ready', 'False', 'PodNotReady');
    expect(message).toBe(
      'the agent pod is running but not ready: its Ready condition is False (NodeNotReady: runtime down)',
    );
    await setPodStatus({ type: 'Ready', status: 'True' });
    await agentCondition('Ready', 'True', 'PodRunning');
  });
});

describe('an unreachable webhook with failurePolicy Fail', () => {
  it('reports the refused pod creation in Ready and SidecarsInjected', async () => {
    await app?.close();
    app = undefined;
    await p.patch('PlatformAgent', 'solo', { spec: { auditMode: 'observe' } }); // a new pod is needed
    const message = await agentCondition('SidecarsInjected', 'False', 'WebhookUnavailable');
    expect(message).toMatch(
      /^the pod was not created: the admission webhook could not be called \(.*failed calling webhook/,
    );
    const agent = await p.get('PlatformAgent', 'solo');
    expect(condition(agent, 'Ready')).toMatchObject({ status: 'False', reason: 'WebhookUnavailable' });
    expect(await p.pod(POD)).toBeUndefined();
  });
});
