// Settings of the webhook role (`platform run webhook`): environment
// variables, each also a `--set name=value` flag.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { ConfigError, KUBECONFIG_SETTING, loadSettings, type Settings } from '../base/config.ts';
import { SIDECAR_RESOURCES } from './constants.ts';
import { sidecarResourceProblems, type SidecarResources } from './mutate/annotations.ts';
import { parseThirdParty, type ThirdPartyAuditor } from './mutate/directory.ts';
import { checkRedirectOptions } from './mutate/redirect.ts';
import { DEFAULT_NAME } from '../contract/kube.ts';

export const WEBHOOK_SETTINGS = {
  port: {
    env: 'PLATFORM_WEBHOOK_PORT',
    flag: 'port',
    type: 'port',
    default: '9443',
    description: 'HTTPS port of /mutate and /validate',
  },
  host: {
    env: 'PLATFORM_WEBHOOK_HOST',
    flag: 'host',
    type: 'string',
    default: '127.0.0.1',
    description:
      'listen address of /mutate and /validate: an IP address, the pod IP in a cluster (decision 88)',
  },
  metricsPort: {
    env: 'PLATFORM_WEBHOOK_METRICS_PORT',
    flag: 'metrics-port',
    type: 'port',
    default: '8082',
    description: 'port of /healthz, /readyz and /metrics',
  },
  kubeconfig: KUBECONFIG_SETTING,
  namespace: {
    env: 'PLATFORM_NAMESPACE',
    flag: 'namespace',
    type: 'string',
    default: DEFAULT_NAME.namespace,
    description: "the operator's namespace (never injected; holds the TLS Secret)",
  },
  serviceName: {
    env: 'PLATFORM_WEBHOOK_SERVICE',
    flag: 'service',
    type: 'string',
    default: DEFAULT_NAME.webhookService,
    description: 'Service in front of the webhook (its DNS names go into the certificate)',
  },
  extraSans: {
    env: 'PLATFORM_WEBHOOK_EXTRA_SANS',
    flag: 'extra-sans',
    type: 'list',
    default: '',
    description: 'extra certificate names: DNS names or IP addresses such as 127.0.0.1',
  },
  tlsSecret: {
    env: 'PLATFORM_WEBHOOK_TLS_SECRET',
    flag: 'tls-secret',
    type: 'string',
    default: DEFAULT_NAME.webhookTlsSecret,
    description: 'Secret with the CA and serving certificate',
  },
  manageCertificates: {
    env: 'PLATFORM_WEBHOOK_MANAGE_CERTIFICATES',
    flag: 'manage-certificates',
    type: 'boolean',
    default: 'true',
    description: 'issue and rotate the certificates (false: cert-manager fills the Secret)',
  },
  mutatingConfig: {
    env: 'PLATFORM_WEBHOOK_MUTATING_CONFIG',
    flag: 'mutating-config',
    type: 'string',
    default: DEFAULT_NAME.mutatingWebhook,
    description: 'MutatingWebhookConfiguration whose caBundle is managed',
  },
  validatingConfig: {
    env: 'PLATFORM_WEBHOOK_VALIDATING_CONFIG',
    flag: 'validating-config',
    type: 'string',
    default: DEFAULT_NAME.validatingWebhook,
    description: 'ValidatingWebhookConfiguration whose caBundle is managed',
  },
  bodyLimitBytes: {
    env: 'PLATFORM_WEBHOOK_BODY_LIMIT',
    flag: 'body-limit',
    type: 'integer',
    default: '4194304',
    description: 'largest AdmissionReview accepted, bytes',
  },
  strictNotarization: {
    env: 'PLATFORM_STRICT_NOTARIZATION',
    flag: 'strict-notarization',
    type: 'boolean',
    default: 'true',
    description: 'reject auditor images without digest or notarization (false: warn, fail-open)',
  },
  verifierUrl: {
    env: 'PLATFORM_VERIFIER_URL',
    flag: 'verifier-url',
    type: 'url',
    default: 'http://platform-verifier.platform-system.svc:8000',
    description: 'Verifier base URL (GET /registry/check)',
  },
  verifierTimeoutMs: {
    env: 'PLATFORM_WEBHOOK_VERIFIER_TIMEOUT',
    flag: 'verifier-timeout',
    type: 'duration',
    default: '2s',
    description: 'bound on one registry check',
  },
  notaryCacheTtlMs: {
    env: 'PLATFORM_WEBHOOK_NOTARY_CACHE_TTL',
    flag: 'notary-cache-ttl',
    type: 'duration',
    default: '10m',
    description: 'reuse of a notarized answer per digest',
  },
  clusterCacheTtlMs: {
    env: 'PLATFORM_WEBHOOK_CLUSTER_CACHE_TTL',
    flag: 'cluster-cache-ttl',
    type: 'duration',
    default: '2s',
    description:
      'reuse of a live read of namespace labels or the chain ConfigMap, made when the informer cache does not settle it (decision 96)',
  },
  platformImage: {
    env: 'PLATFORM_IMAGE',
    flag: 'image',
    type: 'string',
    default: 'ghcr.io/agent-platform/platform:0.1.0',
    description:
      'image of built-in auditors, gateway, proxy and init container (pin by digest in production)',
  },
  auditorRegistry: {
    env: 'PLATFORM_WEBHOOK_AUDITOR_REGISTRY',
    flag: 'auditor-registry',
    type: 'string',
    description: 'JSON file of third-party auditors [{id, image, port?}] (a mounted ConfigMap)',
  },
  modelUrl: {
    env: 'PLATFORM_MODEL_URL',
    flag: 'model-url',
    type: 'url',
    default: 'https://api.openai.com/v1',
    description: 'the model URL of the last chain link and the gateway',
  },
  modelCidrs: {
    env: 'PLATFORM_WEBHOOK_MODEL_CIDRS',
    flag: 'model-cidrs',
    type: 'list',
    default: '',
    description: 'destinations redirected to the gateway (IPv4 CIDRs)',
  },
  modelPorts: {
    env: 'PLATFORM_WEBHOOK_MODEL_PORTS',
    flag: 'model-ports',
    type: 'list',
    default: '',
    description: 'destination ports redirected to the gateway',
  },
  excludeCidrs: {
    env: 'PLATFORM_WEBHOOK_EXCLUDE_CIDRS',
    flag: 'exclude-cidrs',
    type: 'list',
    default: '',
    description: 'destinations never redirected (e.g. the API server)',
  },
  redirect: {
    env: 'PLATFORM_WEBHOOK_REDIRECT',
    flag: 'redirect',
    type: 'boolean',
    default: 'true',
    description: 'add the iptables init container (false where NET_ADMIN is not allowed)',
  },
  nativeSidecars: {
    env: 'PLATFORM_WEBHOOK_NATIVE_SIDECARS',
    flag: 'native-sidecars',
    type: 'string',
    choices: ['auto', 'true', 'false'],
    default: 'auto',
    description: 'sidecars as restartPolicy: Always init containers (auto: Kubernetes 1.29+)',
  },
  teeProvider: {
    env: 'TEE_PROVIDER',
    flag: 'tee-provider',
    type: 'string',
    choices: ['COCO', 'MOCK'],
    default: 'MOCK',
    description: 'TEE provider passed to sidecars',
  },
  apiKeySecret: {
    env: 'PLATFORM_API_KEY_SECRET',
    flag: 'api-key-secret',
    type: 'string',
    default: 'platform-api-key',
    description: 'Secret (key api-key) referenced as PLATFORM_API_KEY in each agent namespace',
  },
  sidecarCpuRequest: {
    env: 'PLATFORM_SIDECAR_CPU_REQUEST',
    flag: 'sidecar-cpu-request',
    type: 'string',
    default: SIDECAR_RESOURCES.requests.cpu,
    description: 'CPU request of each injected sidecar unless the pod annotates its own',
  },
  sidecarMemoryRequest: {
    env: 'PLATFORM_SIDECAR_MEMORY_REQUEST',
    flag: 'sidecar-memory-request',
    type: 'string',
    default: SIDECAR_RESOURCES.requests.memory,
    description: 'memory request of each injected sidecar unless the pod annotates its own',
  },
  sidecarCpuLimit: {
    env: 'PLATFORM_SIDECAR_CPU_LIMIT',
    flag: 'sidecar-cpu-limit',
    type: 'string',
    default: SIDECAR_RESOURCES.limits.cpu,
    description: 'CPU limit of each injected sidecar unless the pod annotates its own',
  },
  sidecarMemoryLimit: {
    env: 'PLATFORM_SIDECAR_MEMORY_LIMIT',
    flag: 'sidecar-memory-limit',
    type: 'string',
    default: SIDECAR_RESOURCES.limits.memory,
    description: 'memory limit of each injected sidecar unless the pod annotates its own',
  },
  leaderElection: {
    env: 'PLATFORM_LEADER_ELECTION',
    flag: 'leader-election',
    type: 'boolean',
    default: 'true',
    description: 'only the leader writes certificates',
  },
} as const;

export type WebhookSettings = Settings<typeof WEBHOOK_SETTINGS> & {
  thirdParty: ThirdPartyAuditor[];
  sidecarDefaults: SidecarResources;
};

export function loadWebhookSettings(
  env: NodeJS.ProcessEnv,
  flags: Record<string, string | undefined>,
): WebhookSettings {
  const s = loadSettings(WEBHOOK_SETTINGS, env, flags);
  const problems: string[] = [];
  const modelPorts = s.modelPorts.map(Number);
  problems.push(
    ...checkRedirectOptions({
      gatewayPort: 8099,
      proxyPort: 8088,
      sidecarUid: 1337,
      modelCidrs: s.modelCidrs,
      modelPorts,
      excludeCidrs: s.excludeCidrs,
    }).map((p) => `PLATFORM_WEBHOOK_MODEL_* / EXCLUDE_CIDRS: ${p}`),
  );
  if (isIP(s.host) === 0)
    problems.push(
      `PLATFORM_WEBHOOK_HOST: expected an IP address such as 127.0.0.1, got ${JSON.stringify(s.host)}`,
    );
  if (s.bodyLimitBytes < 1024) problems.push('PLATFORM_WEBHOOK_BODY_LIMIT: expected at least 1024 bytes');
  const sidecarDefaults: SidecarResources = {
    requests: { cpu: s.sidecarCpuRequest, memory: s.sidecarMemoryRequest },
    limits: { cpu: s.sidecarCpuLimit, memory: s.sidecarMemoryLimit },
  };
  problems.push(...sidecarResourceProblems(sidecarDefaults).map((p) => `PLATFORM_SIDECAR_*: ${p}`));
  let thirdParty: ThirdPartyAuditor[] = [];
  if (s.auditorRegistry) {
    try {
      const parsed = parseThirdParty(readFileSync(s.auditorRegistry, 'utf8'));
      problems.push(
        ...parsed.problems.map((p) => `PLATFORM_WEBHOOK_AUDITOR_REGISTRY ${s.auditorRegistry}${p}`),
      );
      thirdParty = parsed.auditors;
    } catch (err) {
      problems.push(`PLATFORM_WEBHOOK_AUDITOR_REGISTRY: ${(err as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return { ...s, thirdParty, sidecarDefaults };
}

/** DNS names of the Service plus the extra SANs, split into DNS names and IP addresses. */
export function certificateNames(s: Pick<WebhookSettings, 'serviceName' | 'namespace' | 'extraSans'>): {
  dnsNames: string[];
  ipAddresses: string[];
} {
  const svc = s.serviceName;
  const base = [
    svc,
    `${svc}.${s.namespace}`,
    `${svc}.${s.namespace}.svc`,
    `${svc}.${s.namespace}.svc.cluster.local`,
  ];
  const isIp = (x: string): boolean => /^[\d.]+$/.test(x) || x.includes(':');
  return {
    dnsNames: [...base, ...s.extraSans.filter((x) => !isIp(x))],
    ipAddresses: s.extraSans.filter(isIp),
  };
}
