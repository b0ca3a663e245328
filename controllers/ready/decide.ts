// Pure: what `Ready` means for the kinds no other controller reconciles
// (docs/gitops.md has the table, decision 211). Each function takes the
// object and what the operator's caches say about what it refers to, and
// returns the condition (plus a requeue for a deadline). No I/O here.
import { rfc3339, type DesiredCondition } from '../../base/controller/conditions.ts';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorPolicy,
  AuditorRegistration,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import { vocabulariesOf } from '../../api/registry/auditors.ts';
import { policyRecordOf } from '../../policy/admission.ts';
import { checkPolicySave, type SaveCheck } from '../../policy/save.ts';
import { notReady, ready } from '../common/ready.ts';

export interface ReadyDecision {
  condition: DesiredCondition;
  /** Reconcile again after this long (a deadline that changes the answer). */
  requeueAfterMs?: number;
}

function decided(st: NonNullable<ApprovalRequest['status']>): ReadyDecision {
  const when = st.decidedTime ? ` at ${st.decidedTime}` : '';
  const reason = st.phase === 'approved' ? 'Approved' : 'Denied';
  return { condition: ready(reason, `${st.phase} by ${st.decidedBy ?? 'an Owner'}${when}`) };
}

function awaiting(a: ApprovalRequest, deadlineMs: number, now: Date): ReadyDecision {
  if (Number.isNaN(deadlineMs)) {
    return { condition: ready('AwaitingDecision', `waiting for an Owner of ${a.spec.agent} to decide`) };
  }
  const until = rfc3339(new Date(deadlineMs));
  return {
    condition: ready('AwaitingDecision', `waiting for an Owner of ${a.spec.agent} to decide until ${until}`),
    requeueAfterMs: deadlineMs - now.getTime(),
  };
}

/**
 * An ApprovalRequest is Ready when it is decided (approved or denied), when
 * it expired undecided (settled: the action does not happen), or while it
 * waits for a decision before its deadline on an agent that exists. A pending
 * request whose agent is gone can never be acted on: not Ready.
 */
export function approvalReady(a: ApprovalRequest, agentExists: boolean, now: Date): ReadyDecision {
  const st = a.status ?? {};
  if (st.phase === 'approved' || st.phase === 'denied') return decided(st);
  const deadlineMs = a.spec.expiresAt ? Date.parse(a.spec.expiresAt) : NaN;
  if (st.phase === 'expired' || deadlineMs <= now.getTime()) {
    return { condition: ready('Expired', `no decision before ${a.spec.expiresAt ?? 'its deadline'}`) };
  }
  if (agentExists) return awaiting(a, deadlineMs, now);
  const ns = a.metadata.namespace ?? '';
  return {
    condition: notReady('AgentNotFound', `PlatformAgent ${a.spec.agent} does not exist in namespace ${ns}`),
  };
}

/**
 * An AuditorPolicy is Ready when saving it through the API would succeed: its
 * detection overrides keep the enforcement modes of the org policies above
 * it, and its response rules and Cedar text compile and validate against the
 * registered auditors' vocabularies (policy/save.ts, the same check).
 */
export function policyReady(check: SaveCheck): ReadyDecision {
  if (check.ok) {
    return {
      condition: ready(
        'Compiled',
        'enforcement modes kept; the rules compile against the registered vocabularies',
      ),
    };
  }
  const reason = check.code === 'enforcement_violation' ? 'EnforcementViolation' : 'InvalidPolicy';
  return { condition: notReady(reason, check.detail) };
}

/** An AppCatalogEntry is Ready when every auditor it names (its own, its requirements) is built in or registered. */
export function catalogReady(entry: AppCatalogEntry, knownAuditors: ReadonlySet<string>): ReadyDecision {
  const named = [
    ...(entry.spec.type === 'auditor' && entry.spec.auditorId ? [entry.spec.auditorId] : []),
    ...(entry.spec.auditorRequirements ?? []),
  ];
  const unknown = [...new Set(named.filter((id) => !knownAuditors.has(id)))];
  if (unknown.length > 0) {
    return {
      condition: notReady(
        'AuditorNotFound',
        `auditor(s) ${unknown.join(', ')} are neither built in nor registered (AuditorRegistration)`,
      ),
    };
  }
  return { condition: ready('Available', `${entry.spec.displayName} can be installed`) };
}

/** An AgentInstalledApp is Ready when its agent exists beside it and its app is in the catalog. */
export function installedAppReady(
  install: AgentInstalledApp,
  found: { agent: boolean; app: boolean },
): ReadyDecision {
  const { agent, app } = install.spec;
  if (!found.agent) {
    const ns = install.metadata.namespace ?? '';
    return {
      condition: notReady('AgentNotFound', `PlatformAgent ${agent} does not exist in namespace ${ns}`),
    };
  }
  if (!found.app) {
    return { condition: notReady('AppNotFound', `AppCatalogEntry ${app} does not exist`) };
  }
  return { condition: ready('Installed', `${app} is installed on ${agent}`) };
}

const ENFORCEMENT_REASON = { available: 'Available', required: 'Required', blocked: 'Blocked' } as const;

/** A ScopedToolInstall is Ready when the ScopedCredential it names (if any) exists beside it. */
export function toolInstallReady(tool: ScopedToolInstall, credentialExists: boolean): ReadyDecision {
  const ref = tool.spec.credentialRef;
  if (ref && !credentialExists) {
    const ns = tool.metadata.namespace ?? '';
    return {
      condition: notReady('CredentialNotFound', `ScopedCredential ${ref} does not exist in namespace ${ns}`),
    };
  }
  const enforcement = tool.spec.enforcement ?? 'available';
  const where = `${tool.spec.scope} ${tool.spec.scopeId}`;
  return {
    condition: ready(ENFORCEMENT_REASON[enforcement], `${tool.spec.tool} is ${enforcement} in ${where}`),
  };
}

/** What saving the policy would answer, from the operator's caches (the API's own check, policy/save.ts). */
export function policyCheck(
  policy: AuditorPolicy,
  others: {
    policies: readonly AuditorPolicy[];
    auditors: readonly AuditorRegistration[];
    organization?: string;
  },
): SaveCheck {
  const me = policyRecordOf(policy);
  return checkPolicySave(me.id, policy.spec, {
    all: others.policies.map(policyRecordOf),
    vocabularies: vocabulariesOf(others.auditors),
    ...(others.organization ? { organization: others.organization } : {}),
  });
}
