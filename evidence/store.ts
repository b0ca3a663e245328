// The evidence store: append-only and hash-chained. Every entry's hash covers
// the previous entry's hash and the entry's canonical JSON, so changing,
// removing or reordering any stored Evidence breaks the chain from there on.
// Two implementations behind this interface: an embedded JSONL file (default)
// and PostgreSQL (when DATABASE_URL is set).
import { canonicalize } from '../base/canonical.ts';
import {
  checkLinks,
  checkLinksStream,
  GENESIS_HASH,
  linkHash,
  type ChainCheck,
  type ChainLinks,
} from '../base/hash-chain/chain.ts';
import type { Evidence } from './types.ts';
import type { PinEvent } from './pins.ts';
import type { AttestationResult } from './result.ts';

export interface StoredEvidence {
  seq: number;
  evidence_id: string;
  agent_id: string;
  /**
   * The `metadata.uid` of the agent the Evidence was accepted for: a deleted
   * and re-created agent of the same name has another uid, so it does not
   * inherit its predecessor's Evidence. Absent on entries stored before
   * intake bound Evidence to the agent (they belong to no current agent).
   */
  agent_uid?: string;
  received_at: string;
  evidence: Evidence;
  result: AttestationResult;
  prev_hash: string;
  hash: string;
}

export type { ChainCheck };

export interface EvidenceStore {
  readonly kind: 'embedded' | 'postgres';
  /** Appends Evidence accepted for the agent with uid `agentUid`; throws DuplicateEvidenceError for a known evidence_id. */
  append(evidence: Evidence, result: AttestationResult, agentUid: string): Promise<StoredEvidence>;
  get(evidenceId: string): Promise<StoredEvidence | undefined>;
  /** The Evidence of agent `agentId` whose uid is `agentUid` (the current agent's), newest first. */
  listByAgent(
    agentId: string,
    agentUid: string,
    options?: { limit?: number; beforeSeq?: number },
  ): Promise<StoredEvidence[]>;
  /** How many Evidence entries the current agent (its uid) has (the passport's `access_count`). */
  countByAgent(agentId: string, agentUid: string): Promise<number>;
  verifyChain(): Promise<ChainCheck>;
  /** The attester's key pin events, oldest first (see `evidence/pins.ts`). Shared by every replica, durable. */
  attesterPins(attesterId: string): Promise<PinEvent[]>;
  /**
   * Appends `event` when the attester has exactly `expectedVersion` events
   * (true), else appends nothing (false: another writer came first; read
   * again and decide again). Atomic across replicas sharing the store.
   */
  appendPinEvent(event: PinEvent, expectedVersion: number): Promise<boolean>;
  close(): Promise<void>;
}

export class DuplicateEvidenceError extends Error {
  override name = 'DuplicateEvidenceError';
  constructor(readonly evidenceId: string) {
    super(`evidence ${evidenceId} was already submitted`);
  }
}

type Linked = Omit<StoredEvidence, 'hash'>;

export function entryHash(entry: Linked): string {
  const { prev_hash, ...rest } = entry;
  return linkHash(prev_hash, canonicalize(rest));
}

export function link(
  prev: { seq: number; hash: string } | undefined,
  evidence: Evidence,
  result: AttestationResult,
  agentUid: string,
): StoredEvidence {
  const linked: Linked = {
    seq: (prev?.seq ?? 0) + 1,
    evidence_id: evidence.evidence_id,
    agent_id: evidence.agent_id,
    agent_uid: agentUid,
    received_at: new Date().toISOString(),
    evidence,
    result,
    prev_hash: prev?.hash ?? GENESIS_HASH,
  };
  return { ...linked, hash: entryHash(linked) };
}

const EVIDENCE_LINKS: ChainLinks<StoredEvidence> = {
  seq: (e) => e.seq,
  prevHash: (e) => e.prev_hash,
  hash: (e) => e.hash,
  expectedHash: ({ hash: _hash, ...linked }) => entryHash(linked),
};

export const checkChain = (entries: Iterable<StoredEvidence>): ChainCheck =>
  checkLinks(EVIDENCE_LINKS, entries);

/** The same check over entries read page by page (a store larger than memory). */
export const checkChainStream = (entries: AsyncIterable<StoredEvidence>): Promise<ChainCheck> =>
  checkLinksStream(EVIDENCE_LINKS, entries);
