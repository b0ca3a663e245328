// The AuditorPolicy validating webhook's decision, as a pure function: the
// same enforcement check (and the same message) as saving through
// `/v1/policies`. The admission server calls it with the org policies the
// changed policy sits under.
import type { AuditorPolicy } from '../crds/generated/types.ts';
import { enforcementViolations, violationDetail } from './enforcement.ts';
import type { PolicyRecord } from './types.ts';

export type AdmissionVerdict = { allowed: true } | { allowed: false; message: string };

type PolicyObject = Pick<AuditorPolicy, 'metadata' | 'spec'>;

export function policyRecordOf(p: PolicyObject): PolicyRecord {
  const ns = p.metadata.namespace ?? '';
  return {
    id: ns ? `${ns}.${p.metadata.name ?? ''}` : (p.metadata.name ?? ''),
    version: p.spec.version ?? String(p.metadata.generation ?? ''),
    spec: p.spec,
  };
}

/**
 * The parents a policy sits under: the org-scope policies of the workspace's
 * organization constrain a workspace policy; org ones have none.
 */
export function applicableParents<T extends { spec: { scope: string; scopeId?: string } }>(
  policy: T,
  candidates: T[],
  organization?: string,
): T[] {
  if (policy.spec.scope !== 'workspace') return [];
  // The workspace's own organization's policies; all org policies when it cannot be told (stricter, never looser).
  return candidates.filter(
    (c) => c.spec.scope === 'org' && (organization === undefined || c.spec.scopeId === organization),
  );
}

/**
 * Refuses a create or update whose detection overrides break an enforcement
 * mode. An update that leaves `spec.detection` unchanged is allowed, so
 * label, finalizer and status edits never get stuck behind a parent that was
 * tightened later.
 */
export function validateAuditorPolicyChange(
  oldPolicy: PolicyObject | undefined,
  newPolicy: PolicyObject,
  parentPolicies: PolicyObject[],
  organization?: string,
): AdmissionVerdict {
  if (oldPolicy && JSON.stringify(oldPolicy.spec.detection) === JSON.stringify(newPolicy.spec.detection)) {
    return { allowed: true };
  }
  const parents = applicableParents(newPolicy, parentPolicies, organization).map(policyRecordOf);
  const violations = enforcementViolations(newPolicy.spec.detection, parents);
  return violations.length === 0
    ? { allowed: true }
    : { allowed: false, message: violationDetail(violations) };
}
