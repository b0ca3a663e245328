// Read-modify-write of one agent with optimistic concurrency: the fresh
// object is checked and changed, then replaced with its resourceVersion; on a
// conflict the whole step repeats on fresh data (authorization included).
import type { PlatformAgent } from '../../crds/generated/types.ts';
import { apiStatus } from '../../base/kube.ts';
import { conflict, notFound } from '../../base/http-error.ts';
import type { ClusterWriter } from '../store/cluster.ts';

export type AgentEdit = (fresh: PlatformAgent) => PlatformAgent | undefined;

/** Applies `edit` (undefined = nothing to change) and returns the stored agent. */
export async function mutateAgent(
  writer: ClusterWriter,
  first: PlatformAgent,
  edit: AgentEdit,
  attempts = 4,
): Promise<PlatformAgent> {
  let current: PlatformAgent | undefined = first;
  for (let i = 0; i < attempts; i++) {
    if (!current) throw notFound('agent not found');
    const changed = edit(structuredClone(current));
    if (!changed) return current;
    try {
      return await writer.replaceAgent(changed);
    } catch (err) {
      if (apiStatus(err) !== 409) throw err;
    }
    current = await writer.readAgent(first.metadata.namespace ?? '', first.metadata.name ?? '');
  }
  throw conflict('the agent kept changing while this request was applied; retry');
}
