// The containers /mutate adds: one sidecar per auditor, the gateway, the
// credential proxy and the redirect init container. Pure builders.
import { isIP } from 'node:net';
import type { V1Container, V1EnvVar, V1Volume } from '@kubernetes/client-node';
import { auditorSettingsEnv, type AuditorSettingValues } from '../../auditors/catalog/settings.ts';
import { CONTAINER, DEFAULT_SESSION_ID, PORT, SIDECAR_UID } from '../constants.ts';
import type { AuditMode, SidecarResources } from './annotations.ts';
import { auditorUrl, sidecarsOf, type PlacedAuditor } from './chain.ts';
import type { AuditorDirectory } from './directory.ts';
import { redirectScript, type ModelEndpoint, type RedirectOptions } from './redirect.ts';

export interface InjectionConfig {
  directory: AuditorDirectory;
  images: { gateway: string; proxy: string; init: string };
  modelUrl: string;
  verifierUrl: string;
  teeProvider: 'COCO' | 'MOCK';
  /** Sidecars as init containers with `restartPolicy: Always` (Kubernetes 1.29+). */
  nativeSidecars: boolean;
  /** Which traffic counts as model traffic; `false` omits the init container (no NET_ADMIN). */
  redirect: Pick<RedirectOptions, 'modelCidrs' | 'modelPorts' | 'excludeCidrs'> | false;
  /** Secret holding `PLATFORM_API_KEY` for pods that name none (optional reference). */
  apiKeySecret: { name: string; key: string };
  sessionId?: string;
}

export interface PodWiring {
  agentId: string;
  workspaceId: string;
  mode: AuditMode;
  policyId: string;
  resources: SidecarResources;
  auditors: PlacedAuditor[];
  /** The pod's model URL, else the webhook's. */
  modelUrl: string;
  /** The model URL's address when it names one: always redirected to the gateway. */
  modelEndpoint?: ModelEndpoint;
  /** The pod's own key Secret (required reference), else the webhook's shared one. */
  apiKeySecret?: string;
  /** The agent's SVID Secret: mounted read-only into the gateway and the credential proxy, never the agent. */
  svidSecret?: string;
  auditorSettings?: AuditorSettingValues;
}

const localUrl = (port: number): string => `http://127.0.0.1:${port}`;

/** The volume name and path of the SVID Secret in the platform sidecars (`PLATFORM_SVID_DIR`). */
export const SVID_VOLUME = { name: 'platform-svid', path: '/var/run/platform/svid' } as const;

/** The SVID mount and its directory variable for a platform sidecar; nothing without an SVID Secret. */
function withSvid(c: V1Container, wiring: PodWiring): V1Container {
  if (!wiring.svidSecret) return c;
  return {
    ...c,
    env: [...(c.env ?? []), { name: 'PLATFORM_SVID_DIR', value: SVID_VOLUME.path }],
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: SVID_VOLUME.name, mountPath: SVID_VOLUME.path, readOnly: true },
    ],
  };
}

/** The pod volume of the SVID Secret: optional, so a pod starts before its first SVIDs are signed. */
export function svidVolume(wiring: PodWiring): V1Volume[] {
  if (!wiring.svidSecret) return [];
  return [
    { name: SVID_VOLUME.name, secret: { secretName: wiring.svidSecret, optional: true, defaultMode: 0o444 } },
  ];
}

/**
 * The credential proxy's pod-local CA (decision 174): the proxy writes its
 * certificate into this memory volume; the agent's containers read it and are
 * pointed at it by the usual trust variables, so TLS to a routed host, which
 * the proxy terminates to inject the credential, verifies.
 */
export const PROXY_CA_VOLUME = { name: 'platform-proxy-ca', path: '/var/run/platform/proxy-ca' } as const;

export function proxyCaVolume(): V1Volume {
  return { name: PROXY_CA_VOLUME.name, emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } };
}

/**
 * Node adds `ca.pem` to its roots; OpenSSL, Python requests and curl read a
 * whole bundle. The MCP gateway's address comes with them: it runs in the
 * proxy sidecar, on loopback.
 */
const TRUST_VARIABLES: Record<string, string> = {
  PLATFORM_MCP_GATEWAY_URL: `http://127.0.0.1:${PORT.mcpGateway}/mcp`,
  NODE_EXTRA_CA_CERTS: `${PROXY_CA_VOLUME.path}/ca.pem`,
  SSL_CERT_FILE: `${PROXY_CA_VOLUME.path}/ca-bundle.pem`,
  REQUESTS_CA_BUNDLE: `${PROXY_CA_VOLUME.path}/ca-bundle.pem`,
  CURL_CA_BUNDLE: `${PROXY_CA_VOLUME.path}/ca-bundle.pem`,
};

/** An agent container trusting the proxy's CA; a trust variable it sets itself is kept. */
export function trustingProxyCa(c: V1Container): V1Container {
  const own = new Set((c.env ?? []).map((e) => e.name));
  const added = Object.entries(TRUST_VARIABLES)
    .filter(([name]) => !own.has(name))
    .map(([name, value]) => ({ name, value }));
  return {
    ...c,
    env: [...(c.env ?? []), ...added],
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: PROXY_CA_VOLUME.name, mountPath: PROXY_CA_VOLUME.path, readOnly: true },
    ],
  };
}

/** Non-root, no privilege escalation, read-only root, no capabilities: the sidecar UID. */
export function sidecarSecurityContext(): V1Container['securityContext'] {
  return {
    runAsNonRoot: true,
    runAsUser: SIDECAR_UID,
    runAsGroup: SIDECAR_UID,
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

function env(pairs: Record<string, string>): V1EnvVar[] {
  return Object.entries(pairs).map(([name, value]) => ({ name, value }));
}

/** The pod's own key Secret must exist (the pod waits for it); the shared fallback may be missing. */
function apiKeyEnv(config: InjectionConfig, wiring: PodWiring): V1EnvVar {
  const { name, key } = wiring.apiKeySecret
    ? { name: wiring.apiKeySecret, key: config.apiKeySecret.key }
    : config.apiKeySecret;
  const optional = wiring.apiKeySecret === undefined;
  return { name: 'PLATFORM_API_KEY', valueFrom: { secretKeyRef: { name, key, optional } } };
}

/** Probe paths: our roles serve /healthz and /readyz; a third-party auditor only the contract's /health. */
interface ProbePaths {
  startup: string;
  readiness: string;
  liveness: string;
}

const PLATFORM_PROBES: ProbePaths = { startup: '/healthz', readiness: '/readyz', liveness: '/healthz' };
const CONTRACT_PROBES: ProbePaths = { startup: '/health', readiness: '/health', liveness: '/health' };

interface SidecarSpec {
  name: string;
  image: string;
  port: number;
  env: V1EnvVar[];
  probes?: ProbePaths;
}

/**
 * Startup probe: a native sidecar must answer before the next container
 * starts, so the agent never sends its first model call into a closed port.
 * Readiness keeps the pod out of Services while an auditor is still loading.
 */
function probes(
  port: number,
  paths: ProbePaths,
): Pick<V1Container, 'startupProbe' | 'readinessProbe' | 'livenessProbe'> {
  const get = (path: string) => ({ httpGet: { path, port } });
  return {
    startupProbe: { ...get(paths.startup), periodSeconds: 1, failureThreshold: 120, timeoutSeconds: 2 },
    readinessProbe: { ...get(paths.readiness), periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 2 },
    livenessProbe: { ...get(paths.liveness), periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 3 },
  };
}

function sidecar(spec: SidecarSpec, wiring: PodWiring, native: boolean): V1Container {
  return {
    name: spec.name,
    image: spec.image,
    env: spec.env,
    ports: [{ containerPort: spec.port, protocol: 'TCP' }],
    ...probes(spec.port, spec.probes ?? PLATFORM_PROBES),
    resources: {
      requests: { ...wiring.resources.requests },
      limits: { ...wiring.resources.limits },
    },
    securityContext: sidecarSecurityContext(),
    ...(native ? { restartPolicy: 'Always' } : {}),
  };
}

/**
 * One sidecar per auditor that runs in the pod, in chain order;
 * `PLATFORM_CHAIN_NEXT` is the next link (a sidecar or a remote auditor), the
 * model for the last; then the auditor's resolved settings.
 */
export function auditorContainers(config: InjectionConfig, wiring: PodWiring): V1Container[] {
  const chain = wiring.auditors;
  return sidecarsOf(chain).map((a) => {
    const next = chain[chain.indexOf(a) + 1];
    const vars = [
      ...env({
        PLATFORM_AUDITOR_ID: a.id,
        PLATFORM_CHAIN_NEXT: next ? auditorUrl(next) : wiring.modelUrl,
        PORT: String(a.assignedPort),
        PLATFORM_GATEWAY_URL: localUrl(PORT.gateway),
        TEE_PROVIDER: config.teeProvider,
      }),
      ...auditorSettingsEnv(a.id, wiring.auditorSettings?.[a.id]),
    ];
    const name = `${CONTAINER.auditorPrefix}${a.id}`;
    const c = sidecar(
      {
        name,
        image: a.image,
        port: a.assignedPort,
        env: vars,
        probes: a.builtin ? PLATFORM_PROBES : CONTRACT_PROBES,
      },
      wiring,
      config.nativeSidecars,
    );
    return a.args ? { ...c, args: [...a.args] } : c;
  });
}

export function gatewayContainer(config: InjectionConfig, wiring: PodWiring): V1Container {
  const vars = env({
    PORT: String(PORT.gateway),
    PLATFORM_AGENT_ID: wiring.agentId,
    PLATFORM_WORKSPACE_ID: wiring.workspaceId,
    PLATFORM_AUDIT_MODE: wiring.mode,
    PLATFORM_POLICY_ID: wiring.policyId,
    PLATFORM_CHAIN: wiring.auditors.map((a) => `${a.id}=${auditorUrl(a)}`).join(','),
    PLATFORM_MODEL_URL: wiring.modelUrl,
    PLATFORM_VERIFIER_URL: config.verifierUrl,
    TEE_PROVIDER: config.teeProvider,
    PLATFORM_SESSION_ID: config.sessionId ?? DEFAULT_SESSION_ID,
  });
  const spec = {
    name: CONTAINER.gateway,
    image: config.images.gateway,
    port: PORT.gateway,
    env: [...vars, apiKeyEnv(config, wiring)],
  };
  const c = sidecar(spec, wiring, config.nativeSidecars);
  return withSvid({ ...c, args: ['run', 'gateway'] }, wiring);
}

/**
 * The model destinations the proxy refuses: the cluster-wide ones plus the
 * pod's own model (an IPv4 address as a /32; the guard's CIDRs are IPv4, so
 * an IPv6 model's port instead).
 */
function proxyGuardEnv(
  redirect: Exclude<InjectionConfig['redirect'], false>,
  endpoint: ModelEndpoint | undefined,
): Record<string, string> {
  const cidrs = [...redirect.modelCidrs];
  const ports = [...redirect.modelPorts];
  if (endpoint && isIP(endpoint.address) === 4) cidrs.push(`${endpoint.address}/32`);
  else if (endpoint && !ports.includes(endpoint.port)) ports.push(endpoint.port);
  return { PLATFORM_MODEL_CIDRS: cidrs.join(','), PLATFORM_MODEL_PORTS: ports.join(',') };
}

export function credentialProxyContainer(config: InjectionConfig, wiring: PodWiring): V1Container {
  const vars = env({
    PORT: String(PORT.credentialProxy),
    PLATFORM_AGENT_ID: wiring.agentId,
    PLATFORM_WORKSPACE_ID: wiring.workspaceId,
    PLATFORM_VERIFIER_URL: config.verifierUrl,
    // The proxy refuses these itself: a name in SNI/Host must not route model traffic around the gateway.
    ...(config.redirect ? proxyGuardEnv(config.redirect, wiring.modelEndpoint) : {}),
  });
  const spec = {
    name: CONTAINER.credentialProxy,
    image: config.images.proxy,
    port: PORT.credentialProxy,
    env: [...vars, apiKeyEnv(config, wiring)],
  };
  const c = sidecar(spec, wiring, config.nativeSidecars);
  const withCa = {
    ...c,
    env: [...(c.env ?? []), { name: 'PLATFORM_PROXY_CA_DIR', value: PROXY_CA_VOLUME.path }],
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: PROXY_CA_VOLUME.name, mountPath: PROXY_CA_VOLUME.path },
    ],
  };
  return withSvid({ ...withCa, args: ['run', 'proxy'] }, wiring);
}

const initCache = new WeakMap<InjectionConfig, Map<string, V1Container>>();

/**
 * Root with NET_ADMIN/NET_RAW only, for the few milliseconds the rules take
 * to install. Built once per config and model endpoint.
 */
export function initContainer(config: InjectionConfig, endpoint?: ModelEndpoint): V1Container | undefined {
  if (config.redirect === false) return undefined;
  const byEndpoint = initCache.get(config) ?? new Map<string, V1Container>();
  initCache.set(config, byEndpoint);
  const key = endpoint ? `${endpoint.address}|${endpoint.port}` : '';
  let built = byEndpoint.get(key);
  if (!built) {
    if (byEndpoint.size > 1000) byEndpoint.clear();
    built = buildInitContainer(config, config.redirect, endpoint);
    byEndpoint.set(key, built);
  }
  return structuredClone(built);
}

function buildInitContainer(
  config: InjectionConfig,
  redirect: Exclude<InjectionConfig['redirect'], false>,
  endpoint: ModelEndpoint | undefined,
): V1Container {
  const script = redirectScript({
    ...redirect,
    ...(endpoint ? { modelEndpoints: [endpoint] } : {}),
    gatewayPort: PORT.gateway,
    proxyPort: PORT.credentialProxy,
    sidecarUid: SIDECAR_UID,
  });
  return {
    name: CONTAINER.init,
    image: config.images.init,
    command: ['sh', '-c', script],
    resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
    securityContext: {
      runAsUser: 0,
      runAsNonRoot: false,
      allowPrivilegeEscalation: false,
      capabilities: { add: ['NET_ADMIN', 'NET_RAW'], drop: ['ALL'] },
    },
  };
}
