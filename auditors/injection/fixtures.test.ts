// The hand-written detection fixtures (test/fixtures/detection/, written
// without looking at ../shared/data) are well formed and every row yields a
// well-formed verdict from both detectors. Quality on them is reported by
// `npm run eval:auditors`, never asserted here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, detectToxicity } from '../toxicity/detect.ts';
import { TOXICITY_MODEL } from '../toxicity/index.ts';
import { analyseInjection, DEFAULT_BAN_SUBSTRINGS } from './detect.ts';
import { INJECTION_MODEL } from './index.ts';

const dir = new URL('../../test/fixtures/detection/', import.meta.url);
const jsonl = (name: string) =>
  readFileSync(new URL(name, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as { id: string; attack_class: string; text: string });

for (const file of [
  'injection-own.jsonl',
  'injection-own-r2.jsonl',
  'injection-blind-v2.jsonl',
  'injection-blind-v3.jsonl',
  'injection-blind-v4.jsonl',
  'injection-blind-v5.jsonl',
  'injection-blind-v6.jsonl',
  'injection-blind-v7.jsonl',
]) {
  const injectionRows = jsonl(file);
  describe(`injection fixtures: ${file}`, () => {
    it('have unique ids, a label and both classes, including hard negatives', () => {
      expect(new Set(injectionRows.map((r) => r.id)).size).toBe(injectionRows.length);
      const classes = new Set(injectionRows.map((r) => r.attack_class));
      expect(classes).toContain('benign');
      expect(classes).toContain('benign_hard');
      expect([...classes].filter((c) => !c.startsWith('benign')).length).toBeGreaterThan(5);
    });
    it('each yields a score in [0, 1]', () => {
      for (const r of injectionRows) {
        const a = analyseInjection(
          r.text,
          { threshold: 0.8, banSubstrings: DEFAULT_BAN_SUBSTRINGS, invisibleCharCheck: true },
          INJECTION_MODEL,
        );
        expect(a.score).toBeGreaterThanOrEqual(0);
        expect(a.score).toBeLessThanOrEqual(1);
      }
    });
  });
}

for (const file of [
  'toxicity-own.csv',
  'toxicity-blind-v2.csv',
  'toxicity-blind-v3.csv',
  'toxicity-blind-v4.csv',
  'toxicity-blind-v5.csv',
  'toxicity-blind-v6.csv',
  'toxicity-blind-v7.csv',
]) {
  const toxicityLines = readFileSync(new URL(file, dir), 'utf8').trim().split('\n');
  describe(`toxicity fixtures: ${file}`, () => {
    it('use the HateCheck columns and labels', () => {
      expect(toxicityLines[0]).toBe('case_id,functionality,test_case,label_gold,templ_id,ref_templ_id');
      const labels = new Set(toxicityLines.slice(1).map((l) => /,(hateful|non-hateful),/.exec(l)?.[1]));
      expect(labels).toEqual(new Set(['hateful', 'non-hateful']));
    });
    it('each yields per-category scores', () => {
      for (const line of toxicityLines.slice(1)) {
        const r = detectToxicity(line, TOXICITY_MODEL, DEFAULT_THRESHOLDS);
        expect(r.scores.toxicity).toBeGreaterThanOrEqual(0);
      }
    });
  });
}
