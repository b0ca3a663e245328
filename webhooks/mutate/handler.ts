// POST /mutate: what happens to a pod on creation. Fetches the namespace's
// labels and chain ConfigMap, asks the pure core, and answers with the diff of
// the mutated clone as a JSON patch. Invalid annotations admit the pod
// unchanged with a warning and an Event.
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../base/log.ts';
import {
  allow,
  deny,
  diffPatch,
  patchResponse,
  type AdmissionRequest,
  type AdmissionResponse,
} from '../admission/review.ts';
import type { ClusterView, PodEventSink } from '../cluster.ts';
import type { WebhookMetrics } from '../metrics.ts';
import { decideMutation, type MutateDecision, type MutateOptions } from './inject.ts';
import {
  unknownChainIds,
  withRegistered,
  type AuditorDirectory,
  type RegisteredAuditor,
} from './directory.ts';
import { ANNOTATION, CHAIN_CONFIGMAP_KEYS } from '../../contract/kube.ts';

export interface MutateDeps {
  options: MutateOptions;
  cluster: ClusterView;
  events: PodEventSink;
  log: Logger;
  metrics?: WebhookMetrics;
}

const isPodCreate = (r: AdmissionRequest): boolean =>
  r.operation === 'CREATE' && r.resource.group === '' && r.resource.resource === 'pods' && !r.subResource;

function podName(pod: V1Pod): string {
  return pod.metadata?.name ?? `${pod.metadata?.generateName ?? ''}<generated>`;
}

/** The admitted pod: the request, the pod it creates and the namespace it lands in. */
interface AdmittedPod {
  request: AdmissionRequest;
  pod: V1Pod;
  namespace: string;
}

function respond(
  { request, pod, namespace }: AdmittedPod,
  decision: MutateDecision,
  deps: MutateDeps,
): AdmissionResponse {
  const name = podName(pod);
  switch (decision.kind) {
    case 'skip':
      deps.metrics?.mutations.inc({ result: 'skipped', reason: decision.code });
      deps.log.debug({ namespace, pod: name, reason: decision.reason }, 'mutate: not injected');
      return allow(request.uid);
    case 'invalid': {
      deps.metrics?.mutations.inc({ result: 'invalid', reason: 'invalid-annotation' });
      deps.log.warn(
        { namespace, pod: name, errors: decision.errors },
        'mutate: invalid annotations, admitted without injection',
      );
      const note = `not injected: ${decision.errors.join('; ')}`;
      if (!request.dryRun) deps.events.invalidAnnotations(namespace, name, note);
      return allow(
        request.uid,
        decision.errors.map((e) => `platform: pod not injected: ${e}`),
      );
    }
    case 'inject':
      deps.metrics?.mutations.inc({ result: 'injected', reason: decision.status.source });
      deps.log.info({ namespace, pod: name, ...decision.status }, 'mutate: injected');
      return patchResponse(request.uid, diffPatch(pod, decision.pod));
  }
}

/** What admission reads of the cluster for one pod. */
interface ClusterFacts {
  namespaceLabels: Record<string, string> | undefined;
  chainConfig: Record<string, string> | undefined;
  registered: { directory: AuditorDirectory; problems: Map<string, string> };
}

async function readCluster(pod: V1Pod, namespace: string, deps: MutateDeps): Promise<ClusterFacts> {
  const [namespaceLabels, chainConfig] = await Promise.all([
    deps.cluster.namespaceLabels(namespace),
    deps.cluster.chainConfig(namespace),
  ]).catch((err: unknown) => {
    throw new Error(`cannot read namespace ${namespace}: ${(err as Error).message}`, { cause: err });
  });
  const registered = await registeredDirectory(pod, chainConfig, deps).catch((err: unknown) => {
    throw new Error(`cannot read auditor registrations: ${(err as Error).message}`, { cause: err });
  });
  return { namespaceLabels, chainConfig, registered };
}

export async function handleMutate(request: AdmissionRequest, deps: MutateDeps): Promise<AdmissionResponse> {
  const object = request.object;
  if (!isPodCreate(request) || typeof object !== 'object' || object === null) {
    deps.metrics?.mutations.inc({ result: 'skipped', reason: 'not-a-pod-create' });
    return allow(request.uid);
  }
  const pod = object as V1Pod;
  const namespace = request.namespace ?? pod.metadata?.namespace ?? 'default';
  let facts: ClusterFacts;
  try {
    facts = await readCluster(pod, namespace, deps);
  } catch (err) {
    deps.metrics?.mutations.inc({ result: 'error', reason: 'cluster-read' });
    deps.log.error({ err: String(err), namespace }, 'mutate: cannot read the cluster');
    return deny(request.uid, `platform webhook ${(err as Error).message}`, 500);
  }
  const { namespaceLabels, chainConfig, registered } = facts;
  const options = { ...deps.options, directory: registered.directory };
  const decision = withProblems(
    decideMutation({ namespace, pod, namespaceLabels, chainConfig }, options),
    registered.problems,
  );
  return respond({ request, pod, namespace }, decision, deps);
}

/**
 * The directory for this pod: the webhook's own (built-ins and the registry
 * file) plus the AuditorRegistrations its chain names that the directory
 * lacks, and why a named registration cannot be wired here.
 */
async function registeredDirectory(
  pod: V1Pod,
  chainConfig: Record<string, string> | undefined,
  deps: MutateDeps,
): Promise<{ directory: AuditorDirectory; problems: Map<string, string> }> {
  const annotations = pod.metadata?.annotations ?? {};
  const lists = [
    annotations[ANNOTATION.auditorChain],
    annotations[ANNOTATION.auditors],
    ...CHAIN_CONFIGMAP_KEYS.map((k) => chainConfig?.[k]),
  ];
  const wanted = unknownChainIds(lists, deps.options.directory);
  if (!wanted.length) return { directory: deps.options.directory, problems: new Map() };
  const found = await Promise.all(wanted.map((id) => deps.cluster.registeredAuditor(id)));
  const specs = found.filter((r): r is RegisteredAuditor => r !== undefined);
  return withRegistered(deps.options.directory, specs);
}

/** An invalid decision also says why a registered auditor it names could not be wired. */
function withProblems(decision: MutateDecision, problems: Map<string, string>): MutateDecision {
  if (decision.kind !== 'invalid' || !problems.size) return decision;
  return { kind: 'invalid', errors: [...decision.errors, ...problems.values()] };
}
