// The data-access log of an agent (issue 19, Contract D):
//   POST /v1/agents/{agent_id}/accesses  the agent's credential proxy, with a Gateway key serving
//                                        the agent: 1-100 records → 202 {accepted}; 413 over the limit
//   GET  /v1/agents/{agent_id}/accesses  the agent's sharers: newest first, `limit`, `before` (a seq)
// Records are bound to the agent's uid: a re-created agent of the same name starts with none.
import type { PlatformAgent } from '../agents/model.ts';
import { assertGatewayServes } from '../delegations/model.ts';
import { intQuery } from '../http/validate.ts';
import {
  ACCESS_BATCH,
  ACCESS_BATCH_MAX_BYTES,
  normalizedRecord,
  type AccessWire,
} from '../../accesses/record.ts';
import type { StoredAccess } from '../../accesses/store.ts';
import { accessEvent } from '../console/sources.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { ACCESSES_ACCEPTED, ACCESS_LOG } from './responses.ts';

const agentIdOf = (agent: PlatformAgent): string => `${agent.metadata.namespace}.${agent.metadata.name}`;

async function record(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  const agentId = agentIdOf(agent);
  assertGatewayServes(rc.principal, agentId);
  const { records } = bodyOf<{ records: Partial<AccessWire>[] }>(rc);
  const stored = await rc.deps.accesses.append(
    agentId,
    agent.metadata.uid ?? '',
    records.map(normalizedRecord),
  );
  rc.audit.details = { records: stored.length, first_seq: stored[0]?.seq, last_seq: stored.at(-1)?.seq };
  void rc.deps.consoleHub.publish(stored.map(accessEvent));
  return { accepted: stored.length };
}

export const accessItem = (e: StoredAccess): Record<string, unknown> => ({
  seq: e.seq,
  received_at: e.received_at,
  hash: e.hash,
  // Records stored before a field existed read with it null: one shape for every item.
  ...normalizedRecord(e.access),
});

async function list(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  const agentId = agentIdOf(agent);
  const limit = intQuery(rc.query, 'limit', { fallback: 50, min: 1, max: 500 });
  const before = intQuery(rc.query, 'before', { fallback: 0, min: 1, max: Number.MAX_SAFE_INTEGER });
  const entries = await rc.deps.accesses.listByAgent(agentId, agent.metadata.uid ?? '', {
    limit,
    ...(before > 0 ? { beforeSeq: before } : {}),
  });
  const last = entries.at(-1);
  return {
    agent_id: agentId,
    items: entries.map(accessItem),
    // The cursor of the next (older) page; none once this page is the last.
    next_before: entries.length === limit && last ? last.seq : null,
  };
}

export const ACCESS_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/v1/agents/{agent_id}/accesses',
    action: 'agent.accesses.record',
    summary: "Record the agent's data accesses (its credential proxy, with a Gateway key serving the agent)",
    success: 202,
    response: ACCESSES_ACCEPTED,
    body: ACCESS_BATCH,
    maxBodyBytes: () => ACCESS_BATCH_MAX_BYTES,
    handle: record,
  },
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/accesses',
    action: 'agent.accesses.read',
    summary: "The agent's data accesses, newest first",
    success: 200,
    response: ACCESS_LOG,
    query: { limit: '1–500 (default 50)', before: 'page: records before this sequence number' },
    handle: list,
  },
];
