// Evidence intake (Gateway → Verifier) and an agent's evidence timeline:
//   POST /v1/evidence                    a Gateway key; 201, 409 duplicate, 413 over
//                                        PLATFORM_EVIDENCE_MAX_BYTES, 422 malformed claim, bad signature,
//                                        no such agent, a key bound to another credential, stale time
//   GET  /v1/agents/{agent_id}/evidence  share roles (Viewer and above), newest first; the current
//                                        agent's Evidence only (its uid)
//   DELETE /v1/attesters/{attester_id}/keys/{key_id}  org administrators: revoke a pinned key; 204, 404
// The checks themselves are `evidence/intake.ts`; the AttestationResult lands
// in the evidence store and the agent's passport (status and API).
import { intakeEvidence, revokeAttesterKey } from '../../evidence/intake.ts';
import { evidenceEvents } from '../console/sources.ts';
import { credentialOf } from '../agents/evidence-identity.ts';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { Principal } from '../auth/principal.ts';
import { HttpError, notFound } from '../../base/http-error.ts';
import { intQuery } from '../http/validate.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { EVIDENCE_ACCEPTED, EVIDENCE_TIMELINE } from './responses.ts';

/**
 * Why a Gateway key may not submit Evidence for `agentId` ('' when it may): a
 * workspace-limited key only for agents in its workspaces (agent id
 * `<namespace>.<name>`), an agent-bound key (the operator mints one per
 * agent) only for its own agents. Pure.
 */
export function gatewayScopeProblem(principal: Principal, agentId: unknown): string {
  if (typeof agentId !== 'string') return '';
  const workspaces = principal.gatewayWorkspaces ?? [];
  const agents = principal.gatewayAgents ?? [];
  if (workspaces.length > 0 && !workspaces.includes(agentId.split('.')[0] ?? ''))
    return `this gateway key submits Evidence only for workspaces ${workspaces.join(', ')}`;
  if (agents.length > 0 && !agents.includes(agentId))
    return `this gateway key submits Evidence only for agent ${agents.join(', ')}`;
  return '';
}

function checkGatewayScope(rc: RouteCtx): void {
  const problem = gatewayScopeProblem(rc.principal, (rc.body as { agent_id?: unknown }).agent_id);
  if (problem) throw new HttpError(403, problem);
}

async function submit(rc: RouteCtx): Promise<unknown> {
  checkGatewayScope(rc);
  const outcome = await intakeEvidence(rc.body, rc.deps.evidence, credentialOf(rc.principal));
  const id = (rc.body as { evidence_id?: unknown }).evidence_id;
  rc.audit = { resource: `evidence:${typeof id === 'string' ? id.slice(0, 128) : '?'}` };
  if (outcome.status !== 201) throw new HttpError(outcome.status, outcome.detail, outcome.code);
  const { entry } = outcome;
  rc.audit.details = { agent: entry.evidence.agent_id, decision: entry.evidence.decision };
  // The console hears of the call and its decision; the Gateway's answer does not wait on it.
  void rc.deps.consoleHub.publish(evidenceEvents(entry));
  return {
    evidence_id: entry.evidence_id,
    seq: entry.seq,
    hash: entry.hash,
    attestation_result: entry.result,
  };
}

/**
 * One timeline entry: the Evidence, its tier and AttestationResult, and the
 * stored entry's place in the hash chain (`seq`, `prev_hash`, `hash`, with the
 * `received_at` and `agent_uid` the entry hash covers), so a client can check
 * the entry offline (`platform evidence export`).
 */
export const timelineItem = (e: StoredEvidence): Record<string, unknown> => ({
  ...e.evidence,
  trust_tier: e.result.trust_tier,
  seq: e.seq,
  prev_hash: e.prev_hash,
  hash: e.hash,
  received_at: e.received_at,
  ...(e.agent_uid === undefined ? {} : { agent_uid: e.agent_uid }),
  attestation_result: e.result,
});

async function timeline(rc: RouteCtx): Promise<unknown> {
  const agentId = rc.params.agent_id!;
  const limit = intQuery(rc.query, 'limit', { fallback: 50, min: 1, max: 500 });
  const before = intQuery(rc.query, 'before_seq', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const uid = rc.agent?.metadata.uid ?? '';
  const entries = await rc.deps.evidence.store.listByAgent(agentId, uid, {
    limit,
    ...(before > 0 ? { beforeSeq: before } : {}),
  });
  return { agent_id: agentId, items: entries.map(timelineItem) };
}

/** An org administrator revokes an attester key (and so releases the attester once none is left). */
async function revokeKey(rc: RouteCtx): Promise<unknown> {
  const attesterId = rc.params.attester_id!;
  const keyId = rc.params.key_id!;
  rc.audit = { resource: `attester:${attesterId.slice(0, 253)}/${keyId.slice(0, 64)}` };
  const outcome = await revokeAttesterKey(rc.deps.evidence.store, attesterId, keyId);
  if (outcome === 'not_pinned') throw notFound(`no key ${keyId} pinned for attester ${attesterId}`);
  rc.audit.details = { outcome };
  return undefined;
}

export const EVIDENCE_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/evidence',
    action: 'evidence.submit',
    summary: 'Submit signed Evidence (Gateway → Verifier)',
    success: 201,
    response: EVIDENCE_ACCEPTED,
    // Shape, claims and signature are checked by the intake (422 with the reason).
    body: { type: 'object' },
    maxBodyBytes: (deps) => deps.evidence.maxBytes,
    bodyHygiene: 'signed',
    handle: submit,
  },
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/evidence',
    action: 'agent.evidence.read',
    summary: "The agent's evidence timeline, newest first",
    success: 200,
    response: EVIDENCE_TIMELINE,
    query: { limit: '1–500 (default 50)', before_seq: 'page: entries before this sequence number' },
    handle: timeline,
  },
  {
    method: 'DELETE',
    path: '/v1/attesters/{attester_id}/keys/{key_id}',
    action: 'attester.key.revoke',
    summary:
      "Revoke an attester's signing key (never accepted again); revoking its last key releases the attester to the next credential",
    success: 204,
    handle: revokeKey,
  },
];
