// Time ranges of the evidence commands, and timeline items turned back into
// the stored entries whose hash they carry.
import { describe, expect, it } from 'vitest';
import { timelineItem } from '../../api/routes/evidence.ts';
import { entryHash, link } from '../../evidence/store.ts';
import type { AttestationResult } from '../../evidence/result.ts';
import type { Evidence } from '../../evidence/types.ts';
import { entryOf, parseSince, rangeOf } from './evidence-fetch.ts';

const NOW = Date.parse('2030-01-02T00:00:00Z');

describe('time ranges', () => {
  it('reads --since durations and --from/--to times', () => {
    expect(parseSince('90s')).toBe(90_000);
    expect(parseSince('7d')).toBe(7 * 86_400_000);
    expect(rangeOf({}, NOW)).toEqual({ fromMs: NOW - 86_400_000, toMs: NOW });
    expect(rangeOf({ since: '30m' }, NOW)).toEqual({ fromMs: NOW - 1_800_000, toMs: NOW });
    expect(rangeOf({ from: '2030-01-01T00:00:00Z' }, NOW)).toEqual({ fromMs: NOW - 86_400_000, toMs: NOW });
  });

  it('refuses what it cannot read, as usage errors', () => {
    for (const flags of [
      { since: '0h' },
      { since: 'soon' },
      { since: '1h', from: '2030-01-01T00:00:00Z' },
      { to: '2030-01-01T00:00:00Z' },
      { from: 'yesterday' },
      { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' },
    ])
      expect(() => rangeOf(flags, NOW), JSON.stringify(flags)).toThrow(
        expect.objectContaining({ exitCode: 2 }),
      );
  });
});

describe('timeline items', () => {
  it('are the stored entry, whose hash still recomputes', () => {
    const evidence = {
      evidence_id: 'e1',
      agent_id: 'ns.a',
      claims: [],
      decision: 'allow',
    } as unknown as Evidence;
    const result = { evidence_id: 'e1', trust_tier: 'mtls_verified' } as AttestationResult;
    const entry = link(undefined, evidence, result, 'uid-1');
    const back = entryOf(JSON.parse(JSON.stringify(timelineItem(entry))) as Parameters<typeof entryOf>[0]);
    expect(back).toEqual(entry);
    const { hash, ...linked } = back;
    expect(entryHash(linked)).toBe(hash);
  });

  it('say so when the Verifier does not serve the chain fields', () => {
    const item = { seq: 1, hash: 'h', evidence_id: 'e', agent_id: 'a', attestation_result: {} };
    expect(() => entryOf(item as unknown as Parameters<typeof entryOf>[0])).toThrow(
      /does not serve the hash-chain fields/,
    );
  });
});
