// Settings of the operator role (`platform run operator`): environment
// variables, each also a `--set name=value` flag.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadSettings, type Settings } from '../operator/config.ts';
import { validateLeaseTimings } from './runtime/lease-decision.ts';

export const OPERATOR_SETTINGS = {
  metricsPort: {
    env: 'PLATFORM_OPERATOR_METRICS_PORT',
    flag: 'metrics-port',
    type: 'port',
    default: '8081',
    description: 'port of /healthz, /readyz and /metrics (0 picks a free port)',
  },
  kubeconfig: {
    env: 'KUBECONFIG',
    flag: 'kubeconfig',
    type: 'string',
    description: 'kubeconfig path; in-cluster configuration when unset',
  },
  watchNamespace: {
    env: 'PLATFORM_WATCH_NAMESPACE',
    flag: 'watch-namespace',
    type: 'string',
    description: 'reconcile only this namespace (default: all namespaces)',
  },
  identity: {
    env: 'PLATFORM_OPERATOR_IDENTITY',
    flag: 'identity',
    type: 'string',
    description: 'this replica in the lease and Events (default: <hostname>_<random>)',
  },
  leaderElection: {
    env: 'PLATFORM_LEADER_ELECTION',
    flag: 'leader-election',
    type: 'boolean',
    default: 'true',
    description: 'elect one leader among replicas through a Lease',
  },
  leaseNamespace: {
    env: 'PLATFORM_LEADER_ELECTION_NAMESPACE',
    flag: 'leader-election-namespace',
    type: 'string',
    default: 'default',
    description: 'namespace of the leader-election Lease (set it to the operator namespace)',
  },
  leaseName: {
    env: 'PLATFORM_LEADER_ELECTION_LEASE',
    flag: 'leader-election-lease',
    type: 'string',
    default: 'platform-operator',
    description: 'name of the leader-election Lease',
  },
  leaseDurationMs: {
    env: 'PLATFORM_LEADER_ELECTION_LEASE_DURATION',
    flag: 'lease-duration',
    type: 'duration',
    default: '15s',
    description: 'how long a lease holds without renewal',
  },
  renewDeadlineMs: {
    env: 'PLATFORM_LEADER_ELECTION_RENEW_DEADLINE',
    flag: 'renew-deadline',
    type: 'duration',
    default: '10s',
    description: 'the leader steps down when it could not renew for this long',
  },
  retryPeriodMs: {
    env: 'PLATFORM_LEADER_ELECTION_RETRY_PERIOD',
    flag: 'retry-period',
    type: 'duration',
    default: '2s',
    description: 'interval between lease attempts',
  },
  workers: {
    env: 'PLATFORM_CONTROLLER_WORKERS',
    flag: 'workers',
    type: 'integer',
    default: '4',
    description: 'concurrent reconciles per controller (never two for one object)',
  },
  resyncIntervalMs: {
    env: 'PLATFORM_CONTROLLER_RESYNC_INTERVAL',
    flag: 'resync-interval',
    type: 'duration',
    default: '10m',
    description: 're-enqueue every object this often',
  },
  relistIntervalMs: {
    env: 'PLATFORM_INFORMER_RELIST_INTERVAL',
    flag: 'relist-interval',
    type: 'duration',
    default: '5m',
    description: 'fresh list of every watched kind this often (watches can stop silently)',
  },
  staleAfterMs: {
    env: 'PLATFORM_INFORMER_STALE_AFTER',
    flag: 'stale-after',
    type: 'duration',
    default: '15m',
    description: 'unready when an informer saw no event and no list for this long',
  },
} as const;

export type OperatorSettings = Settings<typeof OPERATOR_SETTINGS> & { identity: string };

/** Loads and cross-checks the settings; throws one ConfigError naming every bad value. */
export function loadOperatorSettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
): OperatorSettings {
  const s = loadSettings(OPERATOR_SETTINGS, env, flags);
  const problems = s.leaderElection
    ? validateLeaseTimings({
        leaseDurationMs: s.leaseDurationMs,
        renewDeadlineMs: s.renewDeadlineMs,
        retryPeriodMs: s.retryPeriodMs,
      }).map((p) => `PLATFORM_LEADER_ELECTION_*: ${p}`)
    : [];
  if (s.workers < 1) problems.push(`PLATFORM_CONTROLLER_WORKERS=${s.workers}: expected at least 1`);
  if (s.staleAfterMs <= s.relistIntervalMs) {
    problems.push('PLATFORM_INFORMER_STALE_AFTER must be longer than PLATFORM_INFORMER_RELIST_INTERVAL');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const identity = s.identity ?? `${hostname()}_${randomBytes(4).toString('hex')}`;
  return { ...s, identity };
}
