// How the API tells the evidence intake who is who: the agent an Evidence
// names (from the informer cache, else read from the apiserver, so an agent
// created a moment ago is found) and whether the credential an attester is
// bound to still exists.
import type { AgentResolver } from '../../evidence/intake.ts';
import type { ApiKeyStore } from '../auth/key-store.ts';
import type { Principal } from '../auth/principal.ts';
import type { AgentIndex } from '../store/cache.ts';
import type { ClusterWriter } from '../store/cluster.ts';
import { parseAgentId } from './model.ts';

/** The agent with that id and its uid; undefined when there is none (or the id cannot name one). */
export function agentResolver(index: AgentIndex, writer: Pick<ClusterWriter, 'readAgent'>): AgentResolver {
  return async (agentId) => {
    let ref: { namespace: string; name: string };
    try {
      ref = parseAgentId(agentId);
    } catch {
      return undefined;
    }
    const agent =
      index.agent(`${ref.namespace}/${ref.name}`) ?? (await writer.readAgent(ref.namespace, ref.name));
    const uid = agent?.metadata.uid;
    return uid ? { uid } : undefined;
  };
}

/** The credential a principal submits with: its API key (its id), else its subject. */
export const credentialOf = (p: Principal): string =>
  p.keyId ? `apikey:${p.keyId}` : `subject:${p.subject}`;

/** Whether a credential named by `credentialOf` still exists: an API key not revoked and not expired. */
export function credentialLive(
  keys: Pick<ApiKeyStore, 'lookup'>,
  now: () => number,
): (credential: string) => Promise<boolean> {
  return async (credential) => {
    if (!credential.startsWith('apikey:')) return true;
    const record = await keys.lookup(credential.slice('apikey:'.length));
    return record !== undefined && !(record.expiresAt && Date.parse(record.expiresAt) <= now());
  };
}
