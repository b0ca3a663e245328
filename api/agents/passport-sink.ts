// Writes each AttestationResult into the agent's PlatformAgent status: the
// Evidence's trust tier (`status.trustTier`), the tier per auditor
// (`status.passport.trustTiers`) and the time (`status.passport.lastAttestationTime`),
// as a JSON merge patch on `/status`, so the controller's fields (phase,
// conditions, owners, counters) are untouched; the agent controller carries
// these fields over when it writes. A failed write is logged, not fatal: the
// Evidence is stored, and the API's passport also reads the evidence store.
import type { AttestationResult } from '../../evidence/result.ts';
import type { PassportSink } from '../../evidence/intake.ts';
import type { Logger } from '../../base/log.ts';
import { apiStatus } from '../../base/kube.ts';
import type { ClusterWriter } from '../store/cluster.ts';
import { parseAgentId } from './model.ts';

/** The CRD allows 64 auditors in `passport.trustTiers`. */
const MAX_TIERS = 64;

export function passportStatusPatch(result: AttestationResult): Record<string, unknown> {
  const trustTiers: Record<string, string> = {};
  for (const a of result.auditors.slice(0, MAX_TIERS)) trustTiers[a.auditor_id] = a.trust_tier;
  return {
    trustTier: result.trust_tier,
    passport: { trustTiers, lastAttestationTime: result.verified_at },
  };
}

export function statusPassportSink(writer: ClusterWriter, log: Logger): PassportSink {
  return {
    async record(agentId, result) {
      let ref: { namespace: string; name: string };
      try {
        ref = parseAgentId(agentId);
      } catch {
        log.warn({ agentId }, 'evidence for a malformed agent id: passport not updated');
        return;
      }
      try {
        await writer.mergeAgentStatus(ref.namespace, ref.name, passportStatusPatch(result));
      } catch (err) {
        const status = apiStatus(err);
        log.warn({ agentId, status, err: status ? undefined : err }, 'passport status not updated');
      }
    },
  };
}
