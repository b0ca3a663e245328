// The pure core of /mutate: decide whether a pod is injected (predicates that
// return the reason to skip), validate its annotations, resolve its chain and
// ports, and mutate a deep clone. The HTTP handler only fetches and diffs.
import type { V1Container, V1Pod, V1PodSpec, V1Volume } from '@kubernetes/client-node';
import { CONTAINER } from '../constants.ts';
import {
  validateAnnotations,
  type AuditMode,
  type PodSettings,
  type SidecarResources,
} from './annotations.ts';
import {
  assignPorts,
  resolveChain,
  sidecarsOf,
  type ChainConfigData,
  type ChainSource,
  type PlacedAuditor,
} from './chain.ts';
import {
  auditorContainers,
  credentialProxyContainer,
  gatewayContainer,
  initContainer,
  svidVolume,
  proxyCaVolume,
  trustingProxyCa,
  type InjectionConfig,
  type PodWiring,
} from './containers.ts';
import { modelEndpointOf } from './redirect.ts';
import { ANNOTATION, LABEL } from '../../contract/kube.ts';
import { formatAgentId } from '../../contract/agent-id.ts';

export interface MutateInput {
  namespace: string;
  pod: V1Pod;
  /** Labels of the pod's namespace (undefined when it could not be read). */
  namespaceLabels: Record<string, string> | undefined;
  /** `data` of the namespace's `platform-auditor-chain` ConfigMap. */
  chainConfig: ChainConfigData;
}

export interface InjectionStatus {
  chain: string[];
  source: ChainSource;
  mode: AuditMode;
  ports: Record<string, number>;
  /** Auditors the gateway calls at their endpoint (in-cluster, external): no sidecar. */
  remote?: Record<string, string>;
  native: boolean;
}

function remoteOf(placed: readonly PlacedAuditor[]): Record<string, string> | undefined {
  const remote = placed.filter((a) => a.endpoint).map((a) => [a.id, a.endpoint as string]);
  return remote.length ? Object.fromEntries(remote) : undefined;
}

export type MutateDecision =
  | { kind: 'skip'; code: string; reason: string }
  | { kind: 'invalid'; errors: string[] }
  | { kind: 'inject'; pod: V1Pod; status: InjectionStatus };

export interface MutateOptions extends InjectionConfig {
  /** Namespaces never injected (the operator's own and kube-system). */
  excludedNamespaces: readonly string[];
  /** Sidecar requests and limits when the pod's annotations name none. */
  sidecarDefaults?: SidecarResources;
}

type Predicate = (input: MutateInput, options: MutateOptions) => string;

/**
 * Pure predicates, each returning the reason to skip ('' when none), keyed by
 * a stable code for metrics. The first that answers wins.
 */
export const SKIP_PREDICATES: readonly (readonly [string, Predicate])[] = [
  [
    'excluded-namespace',
    (i, o) => (o.excludedNamespaces.includes(i.namespace) ? `namespace ${i.namespace} is excluded` : ''),
  ],
  [
    'namespace-not-enabled',
    (i) =>
      i.namespaceLabels?.[LABEL.namespaceEnabled] === 'true'
        ? ''
        : `namespace ${i.namespace} is not labelled ${LABEL.namespaceEnabled}=true`,
  ],
  [
    'pod-not-secured',
    (i) =>
      i.pod.metadata?.labels?.[LABEL.secured] === 'true' ? '' : `pod is not labelled ${LABEL.secured}=true`,
  ],
  [
    'already-injected',
    (i) =>
      i.pod.metadata?.annotations?.[ANNOTATION.injectionStatus] !== undefined ||
      hasContainer(i.pod, CONTAINER.gateway)
        ? 'already injected'
        : '',
  ],
  ['host-network', (i) => (i.pod.spec?.hostNetwork === true ? 'pod uses hostNetwork' : '')],
];

function allContainers(pod: V1Pod): V1Container[] {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
}

function hasContainer(pod: V1Pod, name: string): boolean {
  return allContainers(pod).some((c) => c.name === name);
}

function isReservedName(name: string): boolean {
  return name.startsWith(CONTAINER.auditorPrefix) || name.startsWith('platform-');
}

function podPorts(pod: V1Pod): number[] {
  return allContainers(pod).flatMap((c) => (c.ports ?? []).map((p) => p.containerPort));
}

/** The agent id (contract/agent-id.ts), from the agent label, else the pod's name. */
export function agentIdOf(pod: V1Pod, namespace: string): string {
  const meta = pod.metadata ?? {};
  const name = meta.labels?.[LABEL.agent] ?? meta.name ?? (meta.generateName ?? 'pod').replace(/-$/, '');
  return formatAgentId({ namespace, name });
}

/** What the injected containers are built from: the pod's annotations, else the webhook's defaults. */
function podWiring(
  input: MutateInput,
  options: MutateOptions,
  settings: PodSettings,
  auditors: PodWiring['auditors'],
): PodWiring {
  const modelUrl = settings.modelUrl ?? options.modelUrl;
  const endpoint = modelEndpointOf(modelUrl);
  return {
    agentId: agentIdOf(input.pod, input.namespace),
    workspaceId: settings.workspaceId ?? input.pod.metadata?.labels?.[LABEL.workspace] ?? '',
    mode: settings.mode,
    policyId: settings.policyId ?? '',
    resources: settings.resources,
    auditors,
    modelUrl,
    ...(endpoint ? { modelEndpoint: endpoint } : {}),
    ...secretsOf(settings),
    ...(settings.auditorSettings ? { auditorSettings: settings.auditorSettings } : {}),
  };
}

/** The pod's own Secrets the sidecars read: its API key and its SVIDs. */
function secretsOf(settings: PodSettings): Pick<PodWiring, 'apiKeySecret' | 'svidSecret'> {
  return {
    ...(settings.apiKeySecret ? { apiKeySecret: settings.apiKeySecret } : {}),
    ...(settings.svidSecret ? { svidSecret: settings.svidSecret } : {}),
  };
}

/** The pod's volumes with `added`; left absent when there is nothing at all. */
const withVolumes = (volumes: V1Volume[] | undefined, added: V1Volume[]): V1Volume[] | undefined =>
  added.length ? [...(volumes ?? []), ...added] : volumes;

/** Places the init container and the sidecars: native sidecars first among init containers, else after the containers. */
function placeContainers(
  spec: V1PodSpec,
  { init, sidecars, native }: { init: V1Container | undefined; sidecars: V1Container[]; native: boolean },
): void {
  const existingInit = spec.initContainers ?? [];
  const inits = init ? [init] : [];
  if (native) spec.initContainers = [...inits, ...sidecars, ...existingInit];
  else {
    if (init || existingInit.length) spec.initContainers = [...inits, ...existingInit];
    spec.containers = [...spec.containers, ...sidecars];
  }
}

function applyWiring(pod: V1Pod, options: MutateOptions, wiring: PodWiring, status: InjectionStatus): V1Pod {
  const out = structuredClone(pod);
  const spec = (out.spec ??= { containers: [] });
  const sidecars = [
    ...auditorContainers(options, wiring),
    gatewayContainer(options, wiring),
    credentialProxyContainer(options, wiring),
  ];
  spec.volumes = withVolumes(spec.volumes, [...svidVolume(wiring), proxyCaVolume()]);
  spec.containers = (spec.containers ?? []).map(trustingProxyCa);
  placeContainers(spec, {
    init: initContainer(options, wiring.modelEndpoint),
    sidecars,
    native: options.nativeSidecars,
  });
  const meta = (out.metadata ??= {});
  meta.annotations = { ...meta.annotations, [ANNOTATION.injectionStatus]: JSON.stringify(status) };
  return out;
}

/** Decides and, when injecting, returns the mutated clone (the input is never modified). */
export function decideMutation(input: MutateInput, options: MutateOptions): MutateDecision {
  for (const [code, predicate] of SKIP_PREDICATES) {
    const reason = predicate(input, options);
    if (reason) return { kind: 'skip', code, reason };
  }
  const annotations = input.pod.metadata?.annotations;
  const { settings, errors } = validateAnnotations(annotations, options.directory, options.sidecarDefaults);
  if (errors.length) return { kind: 'invalid', errors };
  if (settings.skip) return { kind: 'skip', code: 'skip-audit', reason: `${ANNOTATION.skipAudit} is "true"` };
  const { chain, error } = resolveChain(settings, input.chainConfig, options.directory);
  if (!chain) return { kind: 'invalid', errors: [error as string] };
  const clash = allContainers(input.pod).find((c) => isReservedName(c.name));
  if (clash)
    return { kind: 'invalid', errors: [`container name ${clash.name} is reserved for injected sidecars`] };
  const ports = assignPorts(chain.ids, options.directory, podPorts(input.pod));
  if (ports.error) return { kind: 'invalid', errors: [ports.error] };
  const wiring = podWiring(input, options, settings, ports.placed);
  const status: InjectionStatus = {
    chain: chain.ids,
    source: chain.source,
    mode: settings.mode,
    ports: Object.fromEntries(sidecarsOf(ports.placed).map((a) => [a.id, a.assignedPort])),
    ...(remoteOf(ports.placed) ? { remote: remoteOf(ports.placed) } : {}),
    native: options.nativeSidecars,
  };
  return { kind: 'inject', pod: applyWiring(input.pod, options, wiring, status), status };
}
