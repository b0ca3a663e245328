// Settings of the operator role (`platform run operator`): environment
// variables, each also a `--set name=value` flag.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadSettings, type Settings } from '../base/config.ts';
import { validateLeaseTimings } from '../base/controller/lease-decision.ts';
import { DEFAULT_NAME } from '../contract/kube.ts';

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
    default: DEFAULT_NAME.operatorLease,
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
  trustDomain: {
    env: 'PLATFORM_TRUST_DOMAIN',
    flag: 'trust-domain',
    type: 'string',
    default: 'platform.local',
    description: 'SPIFFE trust domain of agent identities (spiffe://<domain>/agent/<agent_id>)',
  },
  oauthIssuer: {
    env: 'PLATFORM_OAUTH_ISSUER',
    flag: 'oauth-issuer',
    type: 'string',
    default: 'http://platform-verifier.platform-system.svc:8000',
    description:
      'the authorization server issuer (the Verifier API): the audience of the JWT-SVIDs agents present to it',
  },
  oauthTokenUrl: {
    env: 'PLATFORM_OAUTH_TOKEN_URL',
    flag: 'oauth-token-url',
    type: 'url',
    description:
      'where the operator checks that an agent’s OAuth client obtains a token (default <PLATFORM_OAUTH_ISSUER>/oauth/token)',
  },
  svidTtlMs: {
    env: 'PLATFORM_SVID_TTL',
    flag: 'svid-ttl',
    type: 'duration',
    default: '1h',
    description: 'lifetime of the SVIDs given to agent sidecars; renewed at half their life',
  },
  agentEmailDomain: {
    env: 'PLATFORM_AGENT_EMAIL_DOMAIN',
    flag: 'agent-email-domain',
    type: 'string',
    description: 'domain of agent email addresses when the agent names none (default: agents.<trust domain>)',
  },
  agentImage: {
    env: 'PLATFORM_AGENT_IMAGE',
    flag: 'agent-image',
    type: 'string',
    default: 'ghcr.io/agent-platform/agent-runtime:0.1.0',
    description: 'runtime image of agent pods whose PlatformAgent names no image',
  },
  agentRequireInjection: {
    env: 'PLATFORM_AGENT_REQUIRE_INJECTION',
    flag: 'agent-require-injection',
    type: 'boolean',
    default: 'true',
    description:
      'delete and re-create a secured agent pod the mutating webhook did not inject (false only where no platform webhook runs)',
  },
  runtimeClassName: {
    env: 'PLATFORM_AGENT_RUNTIME_CLASS',
    flag: 'agent-runtime-class',
    type: 'string',
    description: 'runtimeClassName of agent and model pods (the TEE, e.g. kata-qemu-tdx); none when unset',
  },
  modelServerImage: {
    env: 'PLATFORM_MODEL_SERVER_IMAGE',
    flag: 'model-server-image',
    type: 'string',
    default: 'ghcr.io/agent-platform/model-server:0.1.0',
    description: 'image of the model server a PlatformEnvironment with deploymentType model runs',
  },
  modelServerArgs: {
    env: 'PLATFORM_MODEL_SERVER_ARGS',
    flag: 'model-server-args',
    type: 'list',
    default: '',
    description: "arguments of the model server container (with the platform image: 'run,model')",
  },

  modelUrl: {
    env: 'PLATFORM_MODEL_URL',
    flag: 'model-url',
    type: 'url',
    description:
      "model base URL of agents whose model no PlatformEnvironment or ModelRegistration serves (unset: the webhook's default)",
  },
  apiNamespace: {
    env: 'PLATFORM_API_NAMESPACE',
    flag: 'api-namespace',
    type: 'string',
    default: DEFAULT_NAME.namespace,
    description: "the Verifier API's key namespace: the record of each agent's gateway key is written there",
  },
  agentStaleAfterMs: {
    env: 'PLATFORM_AGENT_STALE_AFTER',
    flag: 'agent-stale-after',
    type: 'duration',
    default: '720h',
    description: 'an agent without evidence or proxied access for this long gets the Stale condition',
  },
  consentTtlMs: {
    env: 'PLATFORM_CONSENT_TTL',
    flag: 'consent-ttl',
    type: 'duration',
    default: '1h',
    description: 'a consent request nobody answered within this time resolves as denied',
  },
  keyringFile: {
    env: 'PLATFORM_KEYRING_FILE',
    flag: 'keyring-file',
    type: 'string',
    description: 'JSON keyring of key-encryption keys; when unset, the keyring Secret is used',
  },
  keyringSecret: {
    env: 'PLATFORM_KEYRING_SECRET',
    flag: 'keyring-secret',
    type: 'string',
    default: 'platform-system/platform-keyring',
    description: '<namespace>/<name> of the keyring Secret (created with one key on first start)',
  },
  registryClientCert: {
    env: 'PLATFORM_REGISTRY_CLIENT_CERT',
    flag: 'registry-client-cert',
    type: 'string',
    description:
      'client certificate (PEM file, clientAuth) the registry health probes present to mTLS auditors and models (with PLATFORM_REGISTRY_CLIENT_KEY); read per request, none while the file does not exist',
  },
  registryClientKey: {
    env: 'PLATFORM_REGISTRY_CLIENT_KEY',
    flag: 'registry-client-key',
    type: 'string',
    description: 'private key (PEM file) of PLATFORM_REGISTRY_CLIENT_CERT',
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
  if (!/^[^/\s]+\/[^/\s]+$/.test(s.keyringSecret)) {
    problems.push(`PLATFORM_KEYRING_SECRET=${s.keyringSecret}: expected <namespace>/<name>`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const identity = s.identity ?? `${hostname()}_${randomBytes(4).toString('hex')}`;
  return { ...s, identity };
}
