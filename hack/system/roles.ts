// How the local system runs each role of the `platform` binary: its
// environment on this machine and where its readiness probe answers. Pure.
import { NODE_IP } from '../node/layout.ts';

export const LOCAL_IMAGES = {
  platform: 'localhost/agent-platform/platform:dev',
  agentRuntime: 'localhost/agent-platform/agent-runtime:dev',
} as const;

/**
 * Model ids the local model answers for: its own and those config/samples
 * name, so the samples run unchanged. PLATFORM_LOCAL_MODEL_IDS adds more.
 */
export const LOCAL_MODEL_IDS = ['local-echo', 'gpt-4o', 'gpt-4o-mini', 'claude-sonnet', 'llama-3-8b'];

export interface LocalPorts {
  api: number;
  webhook: number;
  model: number;
  operatorOps: number;
  webhookOps: number;
  apiOps: number;
}

export const DEFAULT_PORTS: LocalPorts = {
  api: 8000,
  webhook: 9443,
  model: 11434,
  operatorOps: 8081,
  webhookOps: 8082,
  apiOps: 8083,
};

export interface LocalTopology {
  namespace: string;
  ports: LocalPorts;
  /** True when pods run on the local node: host roles are reached at the node IP. */
  node: boolean;
  leaderElection: boolean;
}

/** The address pods (and the host) reach host roles at. */
export function hostAddress(t: LocalTopology): string {
  return t.node ? NODE_IP : '127.0.0.1';
}

export function modelBaseUrl(t: LocalTopology): string {
  return `http://${hostAddress(t)}:${t.ports.model}/v1`;
}

export function verifierUrl(t: LocalTopology): string {
  return `http://${hostAddress(t)}:${t.ports.api}`;
}

/** Environment shared by every role, then each role's own. */
export function roleEnv(role: string, t: LocalTopology, kubeconfig: string): Record<string, string> {
  const common: Record<string, string> = {
    KUBECONFIG: kubeconfig,
    PLATFORM_NAMESPACE: t.namespace,
    PLATFORM_LEADER_ELECTION: String(t.leaderElection),
    PLATFORM_LEADER_ELECTION_NAMESPACE: t.namespace,
    PLATFORM_VERIFIER_URL: verifierUrl(t),
    // The authorization server is the Verifier: its issuer is the audience of the agents' JWT-SVIDs.
    PLATFORM_OAUTH_ISSUER: verifierUrl(t),
    PLATFORM_MODEL_URL: modelBaseUrl(t),
  };
  const own: Record<string, Record<string, string>> = {
    operator: {
      PLATFORM_OPERATOR_METRICS_PORT: String(t.ports.operatorOps),
      PLATFORM_AGENT_IMAGE: LOCAL_IMAGES.agentRuntime,
      PLATFORM_MODEL_SERVER_IMAGE: LOCAL_IMAGES.platform,
      PLATFORM_MODEL_SERVER_ARGS: 'run,model',
    },
    webhook: {
      PLATFORM_WEBHOOK_PORT: String(t.ports.webhook),
      PLATFORM_WEBHOOK_METRICS_PORT: String(t.ports.webhookOps),
      // The apiserver reaches the webhook by URL on loopback (registerLocalWebhooks), and
      // nothing else may: it listens there only, never on the pods' bridge (decision 88).
      PLATFORM_WEBHOOK_HOST: '127.0.0.1',
      PLATFORM_WEBHOOK_EXTRA_SANS: '127.0.0.1,localhost',
      // Local images are not digest-pinned: warn instead of reject.
      PLATFORM_STRICT_NOTARIZATION: 'false',
      PLATFORM_IMAGE: LOCAL_IMAGES.platform,
      // Any connection to the model's port goes to the gateway, whatever the host.
      PLATFORM_WEBHOOK_MODEL_PORTS: String(t.ports.model),
      // One node with two cores: 100m per sidecar would fit three agent pods.
      PLATFORM_SIDECAR_CPU_REQUEST: '10m',
      PLATFORM_SIDECAR_MEMORY_REQUEST: '64Mi',
    },
    api: {
      PLATFORM_API_PORT: String(t.ports.api),
      PLATFORM_API_METRICS_PORT: String(t.ports.apiOps),
      PLATFORM_API_NAMESPACE: t.namespace,
    },
    model: {
      PORT: String(t.ports.model),
      PLATFORM_MODEL_HOST: hostAddress(t),
      PLATFORM_MODEL_IDS: [...LOCAL_MODEL_IDS, ...(process.env.PLATFORM_LOCAL_MODEL_IDS ?? '').split(',')]
        .filter(Boolean)
        .join(','),
    },
  };
  return { ...common, ...(own[role] ?? {}) };
}

/** Where each role answers /readyz on this machine. */
export function readinessUrl(role: string, t: LocalTopology): string {
  const port: Record<string, number> = {
    operator: t.ports.operatorOps,
    webhook: t.ports.webhookOps,
    api: t.ports.apiOps,
    model: t.ports.model,
  };
  const host = role === 'model' ? hostAddress(t) : '127.0.0.1';
  return `http://${host}:${port[role] ?? 0}/readyz`;
}
