// The evidence store: append-only and hash-chained. Every entry's hash covers
// the previous entry's hash and the entry's canonical JSON, so changing,
// removing or reordering any stored Evidence breaks the chain from there on.
// Two implementations behind this interface: an embedded JSONL file (default)
// and PostgreSQL (when DATABASE_URL is set).
import { createHash } from 'node:crypto';
import { canonicalize } from './canonical.ts';
import type { Evidence } from './types.ts';
import type { PinEvent } from './pins.ts';
import type { AttestationResult } from './result.ts';

export const GENESIS_HASH = '0'.repeat(64);

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

export type ChainCheck = { ok: true; count: number } | { ok: false; seq: number; reason: string };

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
  return createHash('sha256').update(prev_hash).update('\n').update(canonicalize(rest)).digest('hex');
}

export function link(
  prev: { seq: number; hash: string } | undefined,
  evidence: Evidence,
  result: AttestationResult,
  agentUid: string,
  receivedAt = new Date().toISOString(),
): StoredEvidence {
  const linked: Linked = {
    seq: (prev?.seq ?? 0) + 1,
    evidence_id: evidence.evidence_id,
    agent_id: evidence.agent_id,
    agent_uid: agentUid,
    received_at: receivedAt,
    evidence,
    result,
    prev_hash: prev?.hash ?? GENESIS_HASH,
  };
  return { ...linked, hash: entryHash(linked) };
}

/** Walks a chain in order, keeping only the previous entry; the first bad link or hash is reported. */
class ChainWalker {
  private prev: StoredEvidence | undefined;
  private count = 0;

  /** A failed check when `e` does not extend the chain so far, else undefined. */
  step(e: StoredEvidence): ChainCheck | undefined {
    const { hash, ...linked } = e;
    const prev = this.prev;
    const fail = (reason: string): ChainCheck => ({ ok: false, seq: e.seq, reason });
    if (e.seq !== (prev?.seq ?? 0) + 1) return fail(`sequence gap after ${prev?.seq ?? 0}`);
    if (e.prev_hash !== (prev?.hash ?? GENESIS_HASH)) return fail('previous hash does not match');
    if (entryHash(linked) !== hash) return fail('entry hash does not match its content');
    this.prev = e;
    this.count++;
    return undefined;
  }

  get result(): ChainCheck {
    return { ok: true, count: this.count };
  }
}

export function checkChain(entries: Iterable<StoredEvidence>): ChainCheck {
  const walker = new ChainWalker();
  for (const e of entries) {
    const failed = walker.step(e);
    if (failed) return failed;
  }
  return walker.result;
}

/** The same check over entries read page by page (a store larger than memory). */
export async function checkChainStream(entries: AsyncIterable<StoredEvidence>): Promise<ChainCheck> {
  const walker = new ChainWalker();
  for await (const e of entries) {
    const failed = walker.step(e);
    if (failed) return failed;
  }
  return walker.result;
}

/**
 * Group commit: appends queued while a batch is being written go into the
 * next batch, so one write (and one fsync or transaction) serves many.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly write: (items: T[]) => Promise<(R | Error)[]>) {}

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        const results = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => {
          const r = results[i];
          if (r instanceof Error) b.reject(r);
          else b.resolve(r as R);
        });
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.running = false;
  }
}
