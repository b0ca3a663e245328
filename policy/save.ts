// What saving an AuditorPolicy checks, transport-free: the resource schema,
// the enforcement modes of the org policies above it (422 with the exact
// message) and that its rules compile and validate against the Cedar schema
// of the registered vocabularies.
import type { Vocabulary } from '../auditors/sdk/types.ts';
import { validateResource } from '../crds/validators.ts';
import { applicableParents } from './admission.ts';
import { compilePolicySet } from './cedar-gen.ts';
import { validatePolicies } from './cedar-engine.ts';
import { cedarSchema, indexVocabularies } from './cedar-schema.ts';
import { enforcementViolations, violationDetail } from './enforcement.ts';
import type { AuditorPolicySpec, PolicyRecord } from './types.ts';

export type SaveCheck =
  { ok: true } | { ok: false; detail: string; code: 'enforcement_violation' | 'invalid_policy' };

/** What a save is checked against: every policy, the vocabularies, and a workspace policy's organization. */
export interface SaveContext {
  all: PolicyRecord[];
  vocabularies: Vocabulary[];
  /** The organization of the workspace a workspace policy belongs to (its org policies are the parents). */
  organization?: string;
}

export function checkPolicySave(id: string, spec: AuditorPolicySpec, ctx: SaveContext): SaveCheck {
  const { all, vocabularies } = ctx;
  const [namespace, ...rest] = id.split('.');
  const resource = {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AuditorPolicy',
    metadata: { name: rest.join('.') || namespace, namespace },
    spec,
  };
  const shape = validateResource(resource);
  if (!shape.valid) {
    const detail = shape.issues
      .map((i) => `${i.pointer}: ${i.message}${i.expected ? ` (${i.expected})` : ''}`)
      .join('; ');
    return { ok: false, detail, code: 'invalid_policy' };
  }
  const me: PolicyRecord = { id, version: '0', spec };
  const parents = applicableParents(
    me,
    all.filter((p) => p.id !== id),
    ctx.organization,
  );
  const violations = enforcementViolations(spec.detection, parents);
  if (violations.length > 0)
    return { ok: false, detail: violationDetail(violations), code: 'enforcement_violation' };
  const { claims } = indexVocabularies(vocabularies);
  const compiled = compilePolicySet([me], claims);
  const problems = [...compiled.problems, ...validatePolicies(compiled.policies, cedarSchema(claims))];
  return problems.length ? { ok: false, detail: problems.join('; '), code: 'invalid_policy' } : { ok: true };
}

/** The chain a policy is evaluated with: its organization's policies, then itself. */
export function policyChain(
  target: PolicyRecord,
  all: PolicyRecord[],
  organization?: string,
): PolicyRecord[] {
  return [
    ...applicableParents(
      target,
      all.filter((p) => p.id !== target.id),
      organization,
    ),
    target,
  ];
}

/** One version string for a chain: `id@version` of each member, org first. */
export function chainVersion(chain: PolicyRecord[]): string {
  return chain.map((p) => `${p.id}@${p.version}`).join(',');
}
