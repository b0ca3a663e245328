// The `Ready` condition every kind reports (docs/gitops.md: what it means per
// kind; Argo CD's health check and Flux's kstatus read it). Pure builders, so
// each kind's decision is a small pure function with its own unit test.
import type { ConditionStatus, DesiredCondition } from '../../base/controller/conditions.ts';

export const READY = 'Ready';

export function readyCondition(status: ConditionStatus, reason: string, message: string): DesiredCondition {
  return { type: READY, status, reason, message };
}

export const ready = (reason: string, message: string): DesiredCondition =>
  readyCondition('True', reason, message);

export const notReady = (reason: string, message: string): DesiredCondition =>
  readyCondition('False', reason, message);

/** Ready that says what another condition says (a grant is Ready while it is Active). */
export function readyFrom(condition: DesiredCondition): DesiredCondition {
  return readyCondition(condition.status, condition.reason, condition.message ?? condition.reason);
}
