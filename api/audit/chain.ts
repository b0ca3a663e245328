// The hash chain every AuditLog shares (canonical JSON, SHA-256 links, the
// walker that checks them), and the in-memory AuditLog for tests and benches
// (`PLATFORM_API_AUDIT_LOG=:memory:`). The default embedded log is `file.ts`.
import { canonicalize } from '../../base/canonical.ts';
import {
  ChainWalker,
  GENESIS_HASH,
  linkHash,
  type ChainHead,
  type ChainLinks,
} from '../../base/hash-chain/chain.ts';
import type { AuditEntry, AuditFilter, AuditInput, AuditLog, ChainVerification } from './log.ts';

/** Canonical JSON (RFC 8785) keeping a lone surrogate escaped: the log records what callers sent. */
export function canonicalJson(value: unknown): string {
  return canonicalize(value, { loneSurrogates: 'escape' });
}

/** The hash of an entry: over its previous hash and its canonical content. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const { prevHash, ...content } = entry;
  return linkHash(prevHash, canonicalJson(content));
}

const AUDIT_LINKS: ChainLinks<AuditEntry> = {
  seq: (e) => e.seq,
  prevHash: (e) => e.prevHash,
  hash: (e) => e.hash,
  expectedHash: ({ hash: _hash, ...rest }) => entryHash(rest),
};

/** A walker over audit entries, from the genesis or after a verified entry. */
export function auditChainWalker(head?: ChainHead): ChainWalker<AuditEntry> {
  return new ChainWalker(AUDIT_LINKS, head);
}

/** The entry that follows `head` (the genesis when there is none), stamped `nowMs`. */
export function nextEntry(input: AuditInput, head: ChainHead | undefined, nowMs: number): AuditEntry {
  const body = {
    ...input,
    seq: (head?.seq ?? 0) + 1,
    time: new Date(nowMs).toISOString(),
    prevHash: head?.hash ?? GENESIS_HASH,
  };
  return { ...body, hash: entryHash(body) };
}

export function verifyEntries(entries: readonly AuditEntry[]): ChainVerification {
  const walker = auditChainWalker();
  for (const e of entries) {
    const reason = walker.next(e);
    if (reason) return { ok: false, entries: entries.length, brokenAt: e.seq, reason };
  }
  return { ok: true, entries: entries.length };
}

/**
 * The input as it is stored and hashed: `details` through a JSON round trip
 * (so what is read back hashes the same), absent optional fields left out.
 */
export function normalizeInput(input: AuditInput): AuditInput {
  const { namespace, details, ...rest } = input;
  return {
    ...rest,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(details !== undefined
      ? { details: JSON.parse(JSON.stringify(details)) as AuditInput['details'] }
      : {}),
  };
}

const FIELD_FILTERS = ['subject', 'action', 'resource', 'namespace', 'outcome'] as const;

export function matches(e: AuditEntry, f: AuditFilter): boolean {
  if (FIELD_FILTERS.some((k) => f[k] !== undefined && e[k] !== f[k])) return false;
  if (f.namespaces !== undefined && (e.namespace === undefined || !f.namespaces.includes(e.namespace)))
    return false;
  const t = Date.parse(e.time);
  return (f.sinceMs === undefined || t >= f.sinceMs) && (f.untilMs === undefined || t <= f.untilMs);
}

/** The whole chain in memory: for tests and benches only (it grows without bound). */
export class HashChainAuditLog implements AuditLog {
  private readonly entries: AuditEntry[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  append(input: AuditInput): Promise<AuditEntry> {
    const entry = nextEntry(normalizeInput(input), this.entries.at(-1), this.now());
    this.entries.push(entry);
    return Promise.resolve(entry);
  }

  query(filter: AuditFilter): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    const start =
      filter.beforeSeq !== undefined
        ? Math.min(filter.beforeSeq - 1, this.entries.length)
        : this.entries.length;
    for (let i = start - 1; i >= 0 && out.length < filter.limit; i--) {
      const e = this.entries[i] as AuditEntry;
      if (matches(e, filter)) out.push(e);
    }
    return Promise.resolve(out);
  }

  verify(): Promise<ChainVerification> {
    return Promise.resolve(verifyEntries(this.entries));
  }

  /** For tests of tamper detection only. */
  unsafeEntries(): AuditEntry[] {
    return this.entries;
  }
}
