// One Event per condition whose status changed (Kubernetes Events on every
// state change). A condition in its bad state gives a Warning.
import type { Condition } from '../../base/controller/conditions.ts';
import type { EventSpec } from '../../base/controller/events.ts';

/** The status of each condition type that is bad (a Warning when entered). */
const BAD_STATUS: Record<string, Condition['status']> = {
  OwnersMissing: 'True',
  IdentityConflict: 'True',
  Stale: 'True',
  SettingsLocked: 'True',
  ChainValid: 'False',
  GatewayConfigured: 'False',
  GatewayKeyReady: 'False',
  CredentialsReady: 'False',
  CredentialRefsResolved: 'False',
  RequiredAuditorsPresent: 'False',
  SidecarsInjected: 'False',
};

/** Phase changes have their own Event; Ready mirrors the phase, so it is not repeated. */
const SKIP = new Set(['Ready', 'OwnersMissing']);

export function conditionEvents(
  previous: readonly Condition[] | undefined,
  next: readonly Condition[],
): EventSpec[] {
  const out: EventSpec[] = [];
  for (const c of next) {
    if (SKIP.has(c.type)) continue;
    const before = previous?.find((p) => p.type === c.type);
    if (before?.status === c.status) continue;
    const bad = BAD_STATUS[c.type] === c.status;
    if (!before && !bad) continue; // a first, healthy condition is not news
    out.push({
      type: bad ? 'Warning' : 'Normal',
      reason: c.reason,
      action: 'UpdateStatus',
      note: `${c.type}=${c.status}${c.message ? `: ${c.message}` : ''}`,
    });
  }
  return out;
}

/**
 * An Event when Ready changed while the phase did not (the phase Event covers
 * the rest): a Warning naming why the running pod is not ready, a Normal when
 * it is ready again.
 */
export function readyEvent(
  previous: readonly Condition[] | undefined,
  next: readonly Condition[],
): EventSpec | undefined {
  const before = previous?.find((c) => c.type === 'Ready');
  const after = next.find((c) => c.type === 'Ready');
  if (!before || !after || before.status === after.status) return undefined;
  return {
    type: after.status === 'True' ? 'Normal' : 'Warning',
    reason: after.reason,
    action: 'UpdateStatus',
    note: `Ready=${after.status}${after.message ? `: ${after.message}` : ''}`,
  };
}
