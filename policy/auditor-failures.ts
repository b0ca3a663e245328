// How a chain's failed auditors change a Cedar decision, shared by the
// Gateway and `platform policy test --replay` so a replay decides exactly as
// the Gateway did: a failed auditor is a deny, its failure first among the
// reasons.
import type { Decision } from './cedar-engine.ts';

/** What this needs of an auditor's outcome (evidence/types.ts AuditorOutcome). */
export interface OutcomeStatus {
  auditor_id: string;
  status: string;
  error?: { code?: string; message?: string };
}

export function withAuditorFailures(d: Decision, outcomes: readonly OutcomeStatus[]): Decision {
  const failures = outcomes
    .filter((o) => o.status === 'error')
    .map((o) => `AuditorError: ${o.auditor_id}: ${o.error?.code}: ${o.error?.message}`);
  if (failures.length === 0) return d;
  return {
    decision: 'deny',
    reasons: [...failures, ...(d.decision === 'deny' ? d.reasons : [])],
    determining: d.determining,
  };
}
