import { describe, expect, it } from 'vitest';
import { auditInput as input } from '../../test/process/fixtures/audit-log-contract.ts';
import { auditChainWalker, canonicalJson, HashChainAuditLog } from './chain.ts';
import type { AuditEntry } from './log.ts';

describe('the hash-chained audit log', () => {
  it('links each entry to the one before and verifies', async () => {
    const log = new HashChainAuditLog();
    const a = await log.append(input('alice'));
    const b = await log.append(input('bob', { details: { z: 1, a: { y: 2, b: 3 } } }));
    expect(b.prevHash).toBe(a.hash);
    expect(await log.verify()).toEqual({ ok: true, entries: 2 });
  });

  it('detects an edited, a removed and a reordered entry', async () => {
    const log = new HashChainAuditLog();
    for (const s of ['a', 'b', 'c']) await log.append(input(s, { details: { deep: { who: s } } }));
    const entries = log.unsafeEntries();
    (entries[1]!.details!.deep as { who: string }).who = 'mallory';
    expect(await log.verify()).toMatchObject({ ok: false, brokenAt: 2, reason: 'content changed' });
    (entries[1]!.details!.deep as { who: string }).who = 'b';
    entries.splice(1, 1);
    expect((await log.verify()).ok).toBe(false);
  });

  it('filters newest first and pages by seq', async () => {
    const log = new HashChainAuditLog();
    for (let i = 0; i < 10; i++) await log.append(input(i % 2 ? 'odd' : 'even'));
    const odd = await log.query({ subject: 'odd', limit: 3 });
    expect(odd.map((e) => e.seq)).toEqual([10, 8, 6]);
    expect((await log.query({ subject: 'odd', limit: 3, beforeSeq: 6 })).map((e) => e.seq)).toEqual([4, 2]);
    expect(await log.query({ namespaces: ['other'], limit: 10 })).toEqual([]);
  });

  it('walks on from a verified entry', async () => {
    const log = new HashChainAuditLog();
    for (const s of ['a', 'b', 'c']) await log.append(input(s));
    const [a, b, c] = log.unsafeEntries() as [AuditEntry, AuditEntry, AuditEntry];
    const walker = auditChainWalker(a);
    expect(walker.next(b)).toBeUndefined();
    expect(walker.next(c)).toBeUndefined();
    expect(walker.verifiedSeq).toBe(3);
    expect(auditChainWalker({ seq: a.seq, hash: b.hash }).next(b)).toBe('link broken');
    expect(auditChainWalker({ seq: 2, hash: b.hash }).next(b)).toBe('sequence gap');
  });

  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"e":2,"f":1}]},"b":1}',
    );
  });
});
