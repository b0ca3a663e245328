// The decision fast path (the context pruned to what the policy set reads,
// per-phase policy subsets) must decide exactly as the full evaluation does,
// reasons included and in the policy set's order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Claim, Vocabulary } from '../auditors/sdk/types.ts';
import { compilePolicySet } from './cedar-gen.ts';
import { CedarEngine } from './cedar-engine.ts';
import { cedarSchema, indexVocabularies } from './cedar-schema.ts';
import { contextUsage, KEEP_ALL, policyJsons } from './context-usage.ts';
import { guardPhases } from './phase-sets.ts';
import { policyToJson } from '@cedar-policy/cedar-wasm/nodejs';

const usageOf = (...texts: string[]) =>
  contextUsage(policyJsons(Object.fromEntries(texts.map((t, i) => [`p${i}`, t]))));

const est = (text: string): unknown => {
  const json = policyToJson(text);
  return json.type === 'success' ? json.json : undefined;
};

describe('context usage', () => {
  it('collects plain, quoted, `has` and confidence reads', () => {
    const u = usageOf(
      'forbid (principal, action, resource) when { context.a > 1 && context["b.c"] == true };',
      'forbid (principal, action, resource) when { context has d && context.confidence["e.f"] >= 5 };',
      'permit (principal, action, resource) when { context.confidence has g };',
    );
    expect(u.wholeContext).toBe(false);
    expect([...u.attributes].sort()).toEqual(['a', 'b.c', 'confidence', 'd']);
    expect(u.wholeConfidence).toBe(false);
    expect([...u.confidence].sort()).toEqual(['e.f', 'g']);
  });

  it('keeps everything when the whole context or confidence record is used', () => {
    expect(usageOf('forbid (principal, action, resource) when { context == {} };')).toBe(KEEP_ALL);
    expect(
      usageOf('forbid (principal, action, resource) when { context.confidence == {} };').wholeConfidence,
    ).toBe(true);
  });
});

describe('phase guards', () => {
  it('reads the leading guard of the first `when` only', () => {
    const p = 'forbid (principal, action, resource)';
    expect(
      guardPhases(est(`${p} when { context.phase == "request" && context.a > 1 && context.b };`)),
    ).toEqual(['request']);
    expect(
      guardPhases(est(`${p} when { ["request", "response"].contains(context.phase) && context.a };`)),
    ).toEqual(['request', 'response']);
    expect(guardPhases(est(`${p} when { context.a > 1 && context.phase == "request" };`))).toBeUndefined();
    expect(guardPhases(est(`${p} when { context.phase == "request" || context.a };`))).toBeUndefined();
    expect(guardPhases(est(`${p} unless { context.phase == "request" };`))).toBeUndefined();
    expect(guardPhases(est(`${p};`))).toBeUndefined();
  });
});

const vocab = (id: string, phases: string[], entries: [string, string][]): Vocabulary =>
  ({
    auditor_id: id,
    version: '1',
    phases,
    vocabulary: entries.map(([name, type]) => ({ name, type, description: '', value_schema: {} })),
  }) as Vocabulary;

const { claims } = indexVocabularies([
  vocab(
    'injection',
    ['request'],
    [
      ['injection_score', 'score_normalized'],
      ['injection.categories', 'string_list'],
    ],
  ),
  vocab('toxicity', ['request', 'response'], [['toxicity_detected', 'boolean']]),
  vocab('latency', ['response'], [['latency', 'duration_ms']]),
]);

const chain = [
  {
    id: 'acme.org',
    version: '1',
    spec: {
      scope: 'org' as const,
      scopeId: 'acme',
      responseRules: [
        { name: 'inj', claim: 'injection_score', threshold: 0.8, decision: 'deny' as const },
        {
          name: 'inj-conf',
          claim: 'injection_score',
          threshold: 0.5,
          minConfidence: 0.9,
          decision: 'deny' as const,
        },
        { name: 'tox', claim: 'toxicity_detected', decision: 'deny' as const },
      ],
      cedar: [
        'forbid (principal, action, resource) when { context.phase == "response" && context.latency >= 2000 };',
        'forbid (principal, action, resource) when { context["injection.categories"].contains("jailbreak") };',
      ].join('\n'),
    },
  },
];

function engine(fastPath: boolean): CedarEngine {
  const e = new CedarEngine(false, fastPath);
  const set = compilePolicySet(chain, claims);
  expect(set.problems).toEqual([]);
  expect(e.load('p', '1', set.policies, cedarSchema(claims))).toEqual([]);
  return e;
}

const claimArb = fc.oneof(
  fc.record({
    name: fc.constant('injection_score'),
    type: fc.constant('score_normalized'),
    value: fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    confidence: fc.integer({ min: 0, max: 100 }).map((k) => k / 100),
  }),
  fc.record({ name: fc.constant('toxicity_detected'), type: fc.constant('boolean'), value: fc.boolean() }),
  fc.record({
    name: fc.constant('injection.categories'),
    type: fc.constant('string_list'),
    value: fc.subarray(['jailbreak', 'pii', 'other']),
  }),
  fc.record({
    name: fc.constant('latency'),
    type: fc.constant('duration_ms'),
    value: fc.integer({ min: 0, max: 4000 }),
  }),
  fc.record({ name: fc.constant('latency'), type: fc.constant('boolean'), value: fc.boolean() }),
);

describe('fast path', () => {
  it('gives the same decision, reasons and determining policies as the full evaluation (property)', () => {
    const fast = engine(true);
    const full = engine(false);
    fc.assert(
      fc.property(
        fc.array(claimArb, { maxLength: 6 }),
        fc.constantFrom('request', 'response', 'tool_call', ''),
        (list, phase) => {
          const facts = { agentId: 'ns.a', workspaceId: 'ws', phase, claims: list as Claim[] };
          expect(fast.decide('p', facts, claims)).toEqual(full.decide('p', facts, claims));
        },
      ),
      { numRuns: 400 },
    );
  });
});
