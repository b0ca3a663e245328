// Access for one call: the Verifier's egress Cedar policy (contract B:
// generated from the agent's settings and its owners' grants) evaluated here,
// in the pod, per call, so an allow costs no round trip. The policy set is
// parsed once per bundle version. Unknown bundle → refuse; any Cedar error →
// refuse. Approval (after an allow) follows the fixed high-risk actions, the
// manifest's `approvalRequired` and a rule's `approval: owner`.
import {
  policySetTextToParts,
  preparsePolicySet,
  statefulIsAuthorized,
} from '@cedar-policy/cedar-wasm/nodejs';
import { actionRuling, type EffectiveManifest } from '../../policy/access-manifest.ts';
import type { AccessAnswer, AccessQuestion, EgressAccess, EgressBundle } from './contracts.ts';
import { HIGH_RISK_ACTIONS } from './contracts.ts';

export const EGRESS_NAMESPACE = 'Egress';
const POLICY_SET_ID = 'platform-egress';

/** The Cedar request for one question (contract B: entity types, attributes, context). */
export function egressCedarRequest(agentId: string, q: AccessQuestion) {
  const resource = { type: `${EGRESS_NAMESPACE}::Destination`, id: `${q.host}:${q.port}` };
  return {
    principal: { type: `${EGRESS_NAMESPACE}::Agent`, id: agentId },
    action: { type: `${EGRESS_NAMESPACE}::Action`, id: q.action },
    resource,
    context: { user: q.user, method: q.method },
    entities: [
      { uid: { type: resource.type, id: resource.id }, attrs: destinationAttrs(q), parents: [] },
      { uid: { type: `${EGRESS_NAMESPACE}::Agent`, id: agentId }, attrs: {}, parents: [] },
    ],
  };
}

function destinationAttrs(q: AccessQuestion): Record<string, string | number | boolean> {
  return {
    host: q.host.toLowerCase(),
    port: q.port,
    service: q.rule?.service ?? '',
    routed: q.rule !== undefined,
  };
}

export interface CedarAccessOptions {
  agentId: string;
  bundle: () => EgressBundle | undefined;
  /** The agent's effective Access Manifest (for `approvalRequired`), when known. */
  manifest: () => EffectiveManifest | undefined;
}

export class CedarAccess implements EgressAccess {
  private parsedVersion: string | undefined;
  private parseError: string | undefined;

  constructor(private readonly o: CedarAccessOptions) {}

  decide(q: AccessQuestion): AccessAnswer {
    const bundle = this.o.bundle();
    if (!bundle) return { allow: false, reason: 'the egress policy has not been read yet' };
    this.prepare(bundle);
    if (this.parseError)
      return { allow: false, reason: `the egress policy does not parse: ${this.parseError}` };
    const req = egressCedarRequest(this.o.agentId, q);
    const answer = statefulIsAuthorized({ ...req, preparsedPolicySetId: POLICY_SET_ID });
    if (answer.type === 'failure')
      return { allow: false, reason: answer.errors.map((e) => e.message).join('; ') };
    const { decision, diagnostics } = answer.response;
    if (diagnostics.errors.length > 0)
      return { allow: false, reason: `egress policy error in ${diagnostics.errors[0]?.policyId}` };
    if (decision === 'allow') return { allow: true };
    const why =
      diagnostics.reason.length > 0
        ? `forbidden by ${diagnostics.reason.join(', ')}`
        : 'no policy permits it';
    return { allow: false, reason: `${q.method} ${q.host}:${q.port}: ${why}` };
  }

  needsApproval(q: AccessQuestion): boolean {
    if (q.rule?.approval === 'owner') return true;
    if (HIGH_RISK_ACTIONS.includes(q.action)) return true;
    const manifest = this.o.manifest();
    return manifest !== undefined && actionRuling(manifest, q.action) === 'approval_required';
  }

  private prepare(bundle: EgressBundle): void {
    const version = bundle.version || bundle.cedar;
    if (version === this.parsedVersion) return;
    // Re-parsing under the same id replaces the cached set (no growth per version).
    const policies = byAnnotatedId(bundle.cedar);
    const parsed =
      typeof policies === 'string'
        ? { type: 'failure' as const, errors: [{ message: policies }] }
        : preparsePolicySet(POLICY_SET_ID, { staticPolicies: policies });
    this.parsedVersion = version;
    this.parseError = parsed.type === 'failure' ? parsed.errors.map((e) => e.message).join('; ') : undefined;
  }
}

/** The policies keyed by their `@id("…")` annotation (else their position), so reasons name them. */
function byAnnotatedId(text: string): Record<string, string> | string {
  const parts = policySetTextToParts(text);
  if (parts.type === 'failure') return parts.errors.map((e) => e.message).join('; ');
  const out: Record<string, string> = {};
  parts.policies.forEach((policy, i) => {
    const id = /@id\(\s*"((?:[^"\\]|\\.)*)"\s*\)/.exec(policy)?.[1] ?? `policy${i}`;
    out[out[id] === undefined ? id : `${id}#${i}`] = policy;
  });
  return out;
}
