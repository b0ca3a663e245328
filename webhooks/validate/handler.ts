// POST /validate: pods (CREATE, UPDATE) and `pods/ephemeralcontainers`, so
// `kubectl debug` cannot slip an unverified image into an audited pod. A pod
// without auditor containers is allowed. Strict notarization: every platform
// image must be pinned by digest and notarized, else the pod is rejected with
// the image and the reason. Non-strict: the same findings become warnings
// (fail-open, also when the Verifier is unreachable).
import type { V1Container, V1EphemeralContainer, V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../base/log.ts';
import { allow, deny, type AdmissionRequest, type AdmissionResponse } from '../admission/review.ts';
import { CONTAINER } from '../constants.ts';
import type { WebhookMetrics } from '../metrics.ts';
import { imageDigest, type Notary } from './notary.ts';

export interface ValidateDeps {
  strictNotarization: boolean;
  notary: Notary;
  log: Logger;
  metrics?: WebhookMetrics;
}

type AnyContainer = V1Container | V1EphemeralContainer;

const isAuditor = (c: AnyContainer): boolean =>
  c.name.startsWith(CONTAINER.auditorPrefix) || (c.env ?? []).some((e) => e.name === 'PLATFORM_AUDITOR_ID');
const isPlatform = (c: AnyContainer): boolean => isAuditor(c) || c.name.startsWith('platform-');

/**
 * The images to verify: every auditor and platform sidecar, and, once a pod
 * has auditors, every ephemeral (debug) container. Empty for a pod without
 * auditor containers.
 */
export function imagesToVerify(pod: V1Pod): string[] {
  const regular = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const ephemeral = pod.spec?.ephemeralContainers ?? [];
  if (![...regular, ...ephemeral].some(isAuditor)) return [];
  const images = [...regular.filter(isPlatform), ...ephemeral].map((c) => c.image ?? '');
  return [...new Set(images)];
}

/** One finding per image that is not verified; empty when all are. */
export async function findProblems(images: string[], notary: Notary): Promise<string[]> {
  const findings = await Promise.all(
    images.map(async (image) => {
      const digest = imageDigest(image);
      if (!digest) return `image ${image || '(empty)'} is not pinned by digest (expected image@sha256:<hex>)`;
      const answer = await notary.check(digest);
      if ('error' in answer) return `image ${image}: cannot check notarization: ${answer.error}`;
      return answer.notarized ? '' : `image ${image} is not notarized according to the Verifier`;
    }),
  );
  return findings.filter(Boolean);
}

const isPodRequest = (r: AdmissionRequest): boolean =>
  r.resource.group === '' &&
  r.resource.resource === 'pods' &&
  (!r.subResource || r.subResource === 'ephemeralcontainers') &&
  (r.operation === 'CREATE' || r.operation === 'UPDATE');

function podRef(request: AdmissionRequest, pod: V1Pod): string {
  const name = request.name ?? pod.metadata?.name ?? pod.metadata?.generateName ?? 'pod';
  return `${request.namespace ?? ''}/${name}`;
}

export async function handleValidate(
  request: AdmissionRequest,
  deps: ValidateDeps,
): Promise<AdmissionResponse> {
  const pod = request.object as V1Pod | undefined;
  if (!isPodRequest(request) || typeof pod !== 'object' || pod === null) return allow(request.uid);
  const images = imagesToVerify(pod);
  const problems = images.length ? await findProblems(images, deps.notary) : [];
  if (problems.length === 0) {
    deps.metrics?.validations.inc({ result: 'allowed' });
    return allow(request.uid);
  }
  if (deps.strictNotarization) {
    deps.metrics?.validations.inc({ result: 'denied' });
    deps.log.warn({ pod: podRef(request, pod), problems }, 'validate: rejected (strict notarization)');
    return deny(request.uid, `strict notarization: ${problems.join('; ')}`);
  }
  deps.metrics?.validations.inc({ result: 'warned' });
  deps.log.warn(
    { pod: podRef(request, pod), problems },
    'validate: admitted with warnings (non-strict notarization)',
  );
  return allow(
    request.uid,
    problems.map((p) => `platform: ${p}`),
  );
}
