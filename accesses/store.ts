// The data-access log: append-only and hash-chained like the evidence store
// (base/hash-chain). Each entry is one record of the agent's credential proxy,
// bound to the agent's uid, so a deleted and re-created agent of the same name
// does not inherit its predecessor's accesses. Two implementations behind
// this interface: an embedded JSONL file and PostgreSQL (DATABASE_URL).
import { canonicalize } from '../base/canonical.ts';
import {
  checkLinks,
  checkLinksStream,
  GENESIS_HASH,
  linkHash,
  type ChainCheck,
  type ChainHead,
  type ChainLinks,
} from '../base/hash-chain/chain.ts';
import type { AccessWire } from './record.ts';

export interface StoredAccess {
  seq: number;
  agent_id: string;
  agent_uid: string;
  received_at: string;
  access: AccessWire;
  prev_hash: string;
  hash: string;
}

export interface AccessPage {
  limit?: number;
  /** Only entries with a smaller seq (the cursor of the next page). */
  beforeSeq?: number;
}

export interface AccessStore {
  readonly kind: 'embedded' | 'postgres';
  /** Appends the records of one batch for the agent whose uid is `agentUid`, in order, as one write. */
  append(agentId: string, agentUid: string, records: readonly AccessWire[]): Promise<StoredAccess[]>;
  /** The current agent's records (its uid), newest first. */
  listByAgent(agentId: string, agentUid: string, page?: AccessPage): Promise<StoredAccess[]>;
  countByAgent(agentId: string, agentUid: string): Promise<number>;
  verifyChain(): Promise<ChainCheck>;
  close(): Promise<void>;
}

export const DEFAULT_PAGE = 50;

type Linked = Omit<StoredAccess, 'hash'>;

function entryHash(entry: Linked): string {
  const { prev_hash, ...rest } = entry;
  return linkHash(prev_hash, canonicalize(rest));
}

/** Chains the batch after `head`; every entry of one batch has the same receive time. */
export function linkBatch(
  head: ChainHead | undefined,
  agentId: string,
  agentUid: string,
  records: readonly AccessWire[],
): StoredAccess[] {
  const receivedAt = new Date().toISOString();
  const out: StoredAccess[] = [];
  let prev = head;
  for (const access of records) {
    const linked: Linked = {
      seq: (prev?.seq ?? 0) + 1,
      agent_id: agentId,
      agent_uid: agentUid,
      received_at: receivedAt,
      access,
      prev_hash: prev?.hash ?? GENESIS_HASH,
    };
    const entry = { ...linked, hash: entryHash(linked) };
    out.push(entry);
    prev = entry;
  }
  return out;
}

const ACCESS_LINKS: ChainLinks<StoredAccess> = {
  seq: (e) => e.seq,
  prevHash: (e) => e.prev_hash,
  hash: (e) => e.hash,
  expectedHash: ({ hash: _hash, ...linked }) => entryHash(linked),
};

export const checkAccessChain = (entries: Iterable<StoredAccess>): ChainCheck =>
  checkLinks(ACCESS_LINKS, entries);

export const checkAccessChainStream = (entries: AsyncIterable<StoredAccess>): Promise<ChainCheck> =>
  checkLinksStream(ACCESS_LINKS, entries);
