// Access for one call: the Verifier's egress Cedar policy (decision 165,
// generated from the agent's settings and its owners' grants) evaluated here,
// in the pod, per call, so an allow costs no round trip. The policy set is
// parsed once per bundle version. Unknown bundle → refuse; any Cedar error →
// refuse. Approval (after an allow) follows the fixed high-risk actions, the
// manifest's `approvalRequired` and a rule's `approval: owner`.
import { preparsePolicySet, statefulIsAuthorized } from '@cedar-policy/cedar-wasm/nodejs';
import { egressPolicies, egressRequest } from '../../policy/egress-cedar.ts';
import { actionRuling, type EffectiveManifest } from '../../policy/access-manifest.ts';
import type { AccessAnswer, AccessQuestion, EgressAccess, EgressBundle } from '../../contract/egress.ts';
import { HIGH_RISK_ACTIONS } from '../../contract/egress.ts';

const POLICY_SET_ID = 'platform-egress';

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
    const req = egressRequest(this.o.agentId, q);
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

/** The policies keyed by their `@id` annotation, or why the text does not parse. */
function byAnnotatedId(text: string): Record<string, string> | string {
  try {
    return egressPolicies(text);
  } catch (err) {
    return (err as Error).message;
  }
}
