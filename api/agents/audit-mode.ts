// The audit mode as a risk: `enforce` blocks what the policy denies, `observe`
// only records it. Lowering the mode is a high-risk change that an Owner
// approves; raising it is immediate (decision 85).
import { isDeepStrictEqual } from 'node:util';
import type { PlatformAgentSpec } from '../../crds/generated/types.ts';
import { AUDIT_MODES } from '../../crds/schema/enums.ts';

export type AuditMode = (typeof AUDIT_MODES)[number];

/** Higher is stricter. */
const STRENGTH: Record<AuditMode, number> = { observe: 0, enforce: 1 };

export const isAuditMode = (v: unknown): v is AuditMode => (AUDIT_MODES as readonly unknown[]).includes(v);

/** The mode the agent runs in: the CRD's default when unset. */
export const auditModeOf = (spec: PlatformAgentSpec): AuditMode => spec.auditMode ?? 'enforce';

export interface AuditModeChange {
  from: AuditMode;
  to: AuditMode;
}

/** The change when `after` runs in a weaker mode than `before`; undefined otherwise (an invalid mode included). */
export function loweredAuditMode(
  before: PlatformAgentSpec,
  after: PlatformAgentSpec,
): AuditModeChange | undefined {
  const from = auditModeOf(before);
  const to: unknown = after.auditMode ?? 'enforce';
  if (!isAuditMode(to) || STRENGTH[to] >= STRENGTH[from]) return undefined;
  return { from, to };
}

/** Whether `after` differs from `before` in anything but the audit mode. */
export function changesBesidesAuditMode(before: PlatformAgentSpec, after: PlatformAgentSpec): boolean {
  const { auditMode: _before, ...restBefore } = before;
  const { auditMode: _after, ...restAfter } = after;
  return !isDeepStrictEqual(restBefore, restAfter);
}
