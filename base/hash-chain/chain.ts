// The hash chain shared by the evidence store and the API audit log: every
// entry's hash covers the previous entry's hash and the entry's canonical JSON,
// so changing, removing or reordering an entry breaks the chain from there on.
// Each log names its own fields; this module owns the links and their check.
import { createHash } from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainHead {
  seq: number;
  hash: string;
}

/** SHA-256 over the previous hash, a newline and the entry's canonical text (without its own hash). */
export function linkHash(prevHash: string, canonicalContent: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalContent).digest('hex');
}

/** How one log's entries expose their place in the chain. */
export interface ChainLinks<E> {
  seq(entry: E): number;
  prevHash(entry: E): string;
  hash(entry: E): string;
  /** The hash the entry's content should have (over its previous hash and canonical content). */
  expectedHash(entry: E): string;
}

export type ChainBreak = 'sequence gap' | 'link broken' | 'content changed';

/**
 * Checks entries one at a time in seq order, keeping only the last verified
 * head: the reason the next entry breaks the chain, or undefined.
 */
export class ChainWalker<E> {
  private head: ChainHead;
  private checked = 0;

  /** Starts after a verified entry (`head`), or at the genesis. */
  constructor(
    private readonly links: ChainLinks<E>,
    head: ChainHead = { seq: 0, hash: GENESIS_HASH },
  ) {
    this.head = head;
  }

  /** The seq of the last entry that checked out. */
  get verifiedSeq(): number {
    return this.head.seq;
  }

  /** How many entries this walker has verified. */
  get count(): number {
    return this.checked;
  }

  next(entry: E): ChainBreak | undefined {
    const seq = this.links.seq(entry);
    if (seq !== this.head.seq + 1) return 'sequence gap';
    if (this.links.prevHash(entry) !== this.head.hash) return 'link broken';
    const hash = this.links.hash(entry);
    if (this.links.expectedHash(entry) !== hash) return 'content changed';
    this.head = { seq, hash };
    this.checked++;
    return undefined;
  }
}

export type ChainCheck = { ok: true; count: number } | { ok: false; seq: number; reason: string };

/** The stores' wording of a chain break (served by the verify routes). */
function breakOf<E>(reason: ChainBreak, walker: ChainWalker<E>, seq: number): ChainCheck {
  const wording: Record<ChainBreak, string> = {
    'sequence gap': `sequence gap after ${walker.verifiedSeq}`,
    'link broken': 'previous hash does not match',
    'content changed': 'entry hash does not match its content',
  };
  return { ok: false, seq, reason: wording[reason] };
}

/** Checks a whole log from its genesis: the first break, or how many entries verified. */
export function checkLinks<E>(links: ChainLinks<E>, entries: Iterable<E>): ChainCheck {
  const walker = new ChainWalker(links);
  for (const e of entries) {
    const reason = walker.next(e);
    if (reason) return breakOf(reason, walker, links.seq(e));
  }
  return { ok: true, count: walker.count };
}

/** The same check over entries read page by page (a log larger than memory). */
export async function checkLinksStream<E>(
  links: ChainLinks<E>,
  entries: AsyncIterable<E>,
): Promise<ChainCheck> {
  const walker = new ChainWalker(links);
  for await (const e of entries) {
    const reason = walker.next(e);
    if (reason) return breakOf(reason, walker, links.seq(e));
  }
  return { ok: true, count: walker.count };
}
