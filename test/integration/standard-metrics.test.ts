// The standard series (controller-runtime's and client-go's names) scraped
// from running processes: two operator replicas after a reconcile, and a
// webhook that leads its lease and issues its certificate. Values are checked
// for sense: counts above 0 after work, the leader's status 1 and the
// follower's 0, response codes of real apiserver answers.
import { describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { AGENT_CONTROLLER } from '../../controllers/agent/controller.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { hasSeries, metricSum } from './metrics-text.ts';
import { startOperator, startRole, type OperatorProcess } from './operator-process.ts';

const ns = useNamespace('standard-metrics');
const LEASE = 'std-metrics';
const WORKQUEUE = [
  'workqueue_depth',
  'workqueue_adds_total',
  'workqueue_queue_duration_seconds_count',
  'workqueue_work_duration_seconds_count',
  'workqueue_retries_total',
  'workqueue_unfinished_work_seconds',
  'workqueue_longest_running_processor_seconds',
];

/** host:port of the apiserver, as the `host` label carries it. */
function apiserverHost(): string {
  return new URL(kubeConfig().getCurrentCluster()!.server).host;
}

async function createAgent(name: string): Promise<void> {
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'platformagents',
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformAgent',
        metadata: { name },
        spec: { owners: [{ subject: 'alice@example.com', role: 'Owner' }] },
      },
    });
}

async function scrape(proc: OperatorProcess): Promise<string> {
  const { status, body } = await proc.get('/metrics');
  expect(status).toBe(200);
  return body;
}

async function leaderOf(procs: OperatorProcess[]): Promise<OperatorProcess> {
  return eventually(async () => {
    const texts = await Promise.all(procs.map(scrape));
    const leading = procs.filter(
      (_, i) => metricSum(texts[i]!, 'leader_election_master_status', { name: LEASE }) === 1,
    );
    return leading.length === 1 ? leading[0] : undefined;
  }, 'one replica to lead');
}

describe('standard metrics of the operator', () => {
  it('publishes workqueue, reconcile, leader-election and REST client series with sensible values', async () => {
    const procs = await Promise.all(
      ['std-a', 'std-b'].map((identity) =>
        startOperator({
          namespace: ns.name,
          identity,
          env: { PLATFORM_LEADER_ELECTION_LEASE: LEASE, PLATFORM_API_NAMESPACE: ns.name },
        }),
      ),
    );
    const leader = await leaderOf(procs);
    const follower = procs.find((p) => p !== leader)!;
    await createAgent('counted');
    const agentController = { controller: AGENT_CONTROLLER };
    await eventually(async () => {
      const text = await scrape(leader);
      return metricSum(text, 'controller_runtime_reconcile_total', {
        ...agentController,
        result: 'success',
      }) > 0
        ? true
        : undefined;
    }, 'the agent controller to reconcile');
    const text = await scrape(leader);

    expect(
      metricSum(text, 'controller_runtime_reconcile_time_seconds_count', agentController),
    ).toBeGreaterThan(0);
    expect(text).toMatch(
      new RegExp(`^controller_runtime_reconcile_errors_total\\{[^}]*controller="${AGENT_CONTROLLER}"`, 'm'),
    );
    expect(metricSum(text, 'platform_controller_reconcile_total', agentController)).toBeGreaterThan(0);
    for (const series of WORKQUEUE) {
      expect(text, series).toMatch(
        new RegExp(`^${series}\\{[^}]*name="${AGENT_CONTROLLER}"[^}]*\\} \\S+$`, 'm'),
      );
    }
    expect(metricSum(text, 'workqueue_adds_total', { name: AGENT_CONTROLLER })).toBeGreaterThan(0);
    expect(
      metricSum(text, 'workqueue_work_duration_seconds_count', { name: AGENT_CONTROLLER }),
    ).toBeGreaterThan(0);
    expect(
      metricSum(text, 'workqueue_longest_running_processor_seconds', { name: AGENT_CONTROLLER }),
    ).toBeGreaterThanOrEqual(0);

    expect(metricSum(text, 'leader_election_master_status', { name: LEASE })).toBe(1);
    const standby = await scrape(follower);
    expect(metricSum(standby, 'leader_election_master_status', { name: LEASE })).toBe(0);
    // A standby runs no controller: no queue of its own to report.
    expect(hasSeries(standby, 'workqueue_depth')).toBe(false);

    const host = apiserverHost();
    expect(
      metricSum(text, 'rest_client_requests_total', { code: '200', method: 'GET', host }),
    ).toBeGreaterThan(0);
    // The lease did not exist: a replica read it (404) and created it (201, POST).
    const all = await Promise.all(procs.map(scrape));
    const sum = (labels: Record<string, string>): number =>
      all.reduce((total, t) => total + metricSum(t, 'rest_client_requests_total', { ...labels, host }), 0);
    expect(sum({ code: '404', method: 'GET' })).toBeGreaterThan(0);
    expect(sum({ code: '201', method: 'POST' })).toBeGreaterThan(0);
  });
});

describe('standard metrics of the webhook', () => {
  it('reports its lease, its API requests and the expiry of the certificate it issued', async () => {
    const webhook = await startRole('webhook', 'std-webhook', {
      PLATFORM_NAMESPACE: ns.name,
      PLATFORM_LEADER_ELECTION: 'true',
      PLATFORM_WEBHOOK_PORT: '0',
      PLATFORM_WEBHOOK_METRICS_PORT: '0',
      PLATFORM_WEBHOOK_EXTRA_SANS: '127.0.0.1',
      PLATFORM_WEBHOOK_MUTATING_CONFIG: `absent-${ns.fileId}`,
      PLATFORM_WEBHOOK_VALIDATING_CONFIG: `absent-${ns.fileId}`,
      PLATFORM_WEBHOOK_NATIVE_SIDECARS: 'true',
    });
    const text = await eventually(async () => {
      const body = await scrape(webhook);
      const expiry = metricSum(body, 'platform_webhook_certificate_expiry_timestamp_seconds', {
        certificate: 'serving',
      });
      return expiry > 0 ? body : undefined;
    }, 'the webhook to lead and issue its certificate');
    expect(metricSum(text, 'leader_election_master_status', { name: 'platform-webhook' })).toBe(1);
    const expiry = metricSum(text, 'platform_webhook_certificate_expiry_timestamp_seconds', {
      certificate: 'serving',
    });
    expect(expiry).toBeGreaterThan(Date.now() / 1000 + 300 * 86_400); // issued for a year
    expect(metricSum(text, 'rest_client_requests_total', { host: apiserverHost() })).toBeGreaterThan(0);
    expect(metricSum(text, 'rest_client_requests_total', { code: '201', method: 'POST' })).toBeGreaterThan(0);
  });
});
