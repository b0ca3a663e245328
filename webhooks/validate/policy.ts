// POST /validate-policy: AuditorPolicy CREATE and UPDATE. The same
// enforcement check as saving through the Verifier's `/v1/policies`
// (`policy/admission.ts`), so `kubectl apply` of a workspace policy that
// breaks an org policy's enforcement mode is refused with the same message as
// the REST 422. The org policies are read from the apiserver on each request
// (policies change rarely; an admission must not judge by a stale cache). A
// failed read refuses the change, matching `failurePolicy: Fail`.
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import type { Logger } from '../../base/log.ts';
import { validateAuditorPolicyChange } from '../../policy/admission.ts';
import {
  allow,
  BadRequestError,
  type AdmissionRequest,
  type AdmissionResponse,
} from '../admission/review.ts';
import { validateResource } from '../../crds/validators.ts';
import type { WebhookMetrics } from '../metrics.ts';
import { GROUP, PLURAL } from '../../contract/kube.ts';

export interface PolicyValidateDeps {
  /** Every AuditorPolicy in the cluster (the org-scope ones are the parents of a workspace policy). */
  policies(): Promise<AuditorPolicy[]>;
  /** The Organization of workspace `name` in `namespace` (its org policies are a workspace policy's parents). */
  organizationOf?: (namespace: string, name: string) => Promise<string | undefined>;
  log: Logger;
  metrics?: WebhookMetrics;
}

const isPolicyWrite = (r: AdmissionRequest): boolean =>
  r.resource.group === GROUP &&
  r.resource.resource === PLURAL.policy &&
  !r.subResource &&
  (r.operation === 'CREATE' || r.operation === 'UPDATE');

const isPolicy = (o: unknown): o is AuditorPolicy =>
  typeof o === 'object' && o !== null && typeof (o as { spec?: unknown }).spec === 'object';

function refuse(uid: string, code: number, message: string): AdmissionResponse {
  return {
    uid,
    allowed: false,
    status: { code, message, reason: code === 422 ? 'Invalid' : 'InternalError' },
  };
}

const sameObject = (a: AuditorPolicy, b: AuditorPolicy): boolean =>
  a.metadata.namespace === b.metadata.namespace && a.metadata.name === b.metadata.name;

/** The first way `o` breaks the AuditorPolicy schema (the CRD's, as the REST API checks it), or undefined. */
function schemaProblem(o: unknown, path: string): string | undefined {
  if (o === undefined || o === null) return undefined;
  const result = validateResource(o);
  if (result.valid) return undefined;
  const [issue] = result.issues;
  const field = `${path}${(issue?.pointer ?? '').replaceAll('/', '.')}`;
  return `${field}: ${issue?.message ?? 'invalid'}${issue?.expected ? ` (expected ${issue.expected})` : ''}`;
}

export async function handleValidatePolicy(
  request: AdmissionRequest,
  deps: PolicyValidateDeps,
): Promise<AdmissionResponse> {
  if (!isPolicyWrite(request)) return allow(request.uid);
  // The apiserver sends only schema-valid policies; anything else is a malformed review (400).
  const problem =
    schemaProblem(request.object, 'request.object') ?? schemaProblem(request.oldObject, 'request.oldObject');
  if (problem) throw new BadRequestError(problem);
  const policy = request.object;
  if (!isPolicy(policy)) return allow(request.uid);
  const old = isPolicy(request.oldObject) ? request.oldObject : undefined;
  const parents = await orgParents(policy, deps);
  if (!parents)
    return refuse(request.uid, 500, 'cannot read the org AuditorPolicies to check enforcement modes');
  const verdict = validateAuditorPolicyChange(old, policy, parents.policies, parents.organization);
  if (verdict.allowed) {
    deps.metrics?.validations.inc({ result: 'allowed' });
    return allow(request.uid);
  }
  deps.metrics?.validations.inc({ result: 'denied' });
  deps.log.info({ policy: policyRef(request, policy) }, 'validate-policy: enforcement violation');
  return refuse(request.uid, 422, verdict.message);
}

/** `namespace/name` of the policy under review, for the log. */
const policyRef = (request: AdmissionRequest, policy: AuditorPolicy): string =>
  `${request.namespace ?? ''}/${request.name ?? policy.metadata.name ?? ''}`;

/**
 * The org policies that may sit above a workspace policy (none for an org
 * policy) and the workspace's organization; undefined when they cannot be
 * read, which refuses the change.
 */
async function orgParents(
  policy: AuditorPolicy,
  deps: PolicyValidateDeps,
): Promise<{ policies: AuditorPolicy[]; organization?: string } | undefined> {
  if (policy.spec.scope !== 'workspace') return { policies: [] };
  try {
    const policies = (await deps.policies()).filter((p) => p.spec.scope === 'org' && !sameObject(p, policy));
    const organization = await deps.organizationOf?.(policy.metadata.namespace ?? '', policy.spec.scopeId);
    return { policies, organization };
  } catch (err) {
    deps.log.warn({ err: (err as Error).message }, 'validate-policy: cannot read org policies');
    deps.metrics?.validations.inc({ result: 'error' });
    return undefined;
  }
}
