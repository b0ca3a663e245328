// The evidence store: append-only and hash-chained. Every entry's hash covers
// the previous entry's hash and the entry's canonical JSON, so changing,
// removing or reordering any stored Evidence breaks the chain from there on.
// Two implementations behind this interface: an embedded JSONL file (default)
// and PostgreSQL (when DATABASE_URL is set).
import { createHash } from 'node:crypto';
import { canonicalize } from './canonical.ts';
import type { Evidence } from './types.ts';
import type { AttestationResult } from './result.ts';

export const GENESIS_HASH = '0'.repeat(64);

export interface StoredEvidence {
  seq: number;
  evidence_id: string;
  agent_id: string;
  received_at: string;
  evidence: Evidence;
  result: AttestationResult;
  prev_hash: string;
  hash: string;
}

export type ChainCheck = { ok: true; count: number } | { ok: false; seq: number; reason: string };

export interface EvidenceStore {
  readonly kind: 'embedded' | 'postgres';
  /** Appends; throws DuplicateEvidenceError for a known evidence_id. */
  append(evidence: Evidence, result: AttestationResult): Promise<StoredEvidence>;
  get(evidenceId: string): Promise<StoredEvidence | undefined>;
  /** Newest first. */
  listByAgent(agentId: string, options?: { limit?: number; beforeSeq?: number }): Promise<StoredEvidence[]>;
  verifyChain(): Promise<ChainCheck>;
  /**
   * Pins `publicKey` for (attester, key id) unless a key is pinned already,
   * and returns the pinned key. First writer wins, across every replica that
   * shares the store, and pins outlive restarts.
   */
  pinAttesterKey(attesterId: string, keyId: string, publicKey: string): Promise<string>;
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
  receivedAt = new Date().toISOString(),
): StoredEvidence {
  const linked: Linked = {
    seq: (prev?.seq ?? 0) + 1,
    evidence_id: evidence.evidence_id,
    agent_id: evidence.agent_id,
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
