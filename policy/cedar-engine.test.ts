import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Claim, Vocabulary } from '../auditors/sdk/types.ts';
import { compilePolicySet } from './cedar-gen.ts';
import { CedarEngine, validatePolicies } from './cedar-engine.ts';
import { cedarSchema, indexVocabularies } from './cedar-schema.ts';
import { bundlePreset, presetCedar, PRESETS } from './presets.ts';
import type { PolicyRecord } from './types.ts';

const vocab: Vocabulary = {
  auditor_id: 'injection',
  version: '1',
  phases: ['request'],
  vocabulary: [
    { name: 'injection_detected', type: 'boolean', description: '', value_schema: {} },
    { name: 'injection_score', type: 'score_normalized', description: '', value_schema: {} },
    { name: 'injection.categories', type: 'string_list', description: '', value_schema: {} },
    { name: 'input_tokens', type: 'count', description: '', value_schema: {} },
    { name: 'latency', type: 'duration_ms', description: '', value_schema: {} },
  ],
};
const { claims } = indexVocabularies([vocab]);
const schema = cedarSchema(claims);

function engineWith(chain: PolicyRecord[]): CedarEngine {
  const set = compilePolicySet(chain, claims);
  expect(set.problems).toEqual([]);
  expect(validatePolicies(set.policies, schema)).toEqual([]);
  const engine = new CedarEngine();
  expect(engine.load('p', '1', set.policies, schema)).toEqual([]);
  return engine;
}

const policy = (id: string, spec: Partial<PolicyRecord['spec']>): PolicyRecord => ({
  id,
  version: '1',
  spec: { scope: 'org', scopeId: 'acme', ...spec },
});
const facts = (list: Claim[]) => ({ agentId: 'ns.a', workspaceId: 'ws', phase: 'request', claims: list });
const score = (v: number): Claim => ({ name: 'injection_score', type: 'score_normalized', value: v });

describe('Cedar decision', () => {
  const org = policy('acme.org', {
    responseRules: [{ name: 'block', claim: 'injection_score', threshold: 0.8, decision: 'deny' }],
  });

  it('denies at and above a score threshold and allows below it (property, scaled ×1000)', () => {
    const engine = engineWith([org]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (k) => {
        const d = engine.decide('p', facts([score(k / 1000)]), claims);
        return d.decision === (k >= 800 ? 'deny' : 'allow');
      }),
    );
    expect(engine.decide('p', facts([score(0.7995)]), claims).decision).toBe('deny'); // rounds to 800
    expect(engine.decide('p', facts([score(0.7994)]), claims).decision).toBe('allow');
  });

  it('lets no workspace permit undo an org forbid', () => {
    const ws = policy('ws.p', {
      scope: 'workspace',
      scopeId: 'ws',
      cedar: 'permit (principal, action, resource) when { context.injection_score >= 0 };',
    });
    const d = engineWith([org, ws]).decide('p', facts([score(0.9)]), claims);
    expect(d).toMatchObject({ decision: 'deny', reasons: ['forbid: acme.org/block'] });
  });

  it('denies with KeyError when a forbid reads a claim no auditor produced', () => {
    const d = engineWith([org]).decide('p', facts([]), claims);
    expect(d.decision).toBe('deny');
    expect(d.reasons[0]).toMatch(/^KeyError: claim 'injection_score' read by policy 'acme.org\/block'/);
  });

  it('denies a type mismatch before evaluating', () => {
    const d = engineWith([org]).decide(
      'p',
      facts([{ name: 'injection_score', type: 'boolean', value: true }]),
      claims,
    );
    expect(d.reasons[0]).toMatch(/^TypeMismatch: claim 'injection_score' has type boolean/);
    const v = engineWith([org]).decide('p', facts([score(1.5)]), claims);
    expect(v.reasons[0]).toMatch(/^TypeMismatch/);
  });

  it('denies an unknown policy id with PolicyNotFound', () => {
    expect(new CedarEngine().decide('nope', facts([score(0)]), claims).reasons).toEqual([
      "PolicyNotFound: no policy 'nope' is registered",
    ]);
  });

  it('compiles booleans, sets, counts and durations', () => {
    const cedar = [
      'forbid (principal, action, resource) when { context["injection.categories"].contains("jailbreak") };',
      'forbid (principal, action, resource) when { context.input_tokens > 100 };',
      'forbid (principal, action, resource) when { context.latency >= 2000 };',
    ].join('\n');
    const engine = engineWith([
      policy('acme.org', {
        cedar,
        responseRules: [{ name: 'flag', claim: 'injection_detected', decision: 'deny' }],
      }),
    ]);
    const base: Claim[] = [
      { name: 'injection_detected', type: 'boolean', value: false },
      { name: 'injection.categories', type: 'string_list', value: [] },
      { name: 'input_tokens', type: 'count', value: 5 },
      { name: 'latency', type: 'duration_ms', value: 10.4 },
    ];
    expect(engine.decide('p', facts(base), claims).decision).toBe('allow');
    const swap = (i: number, c: Claim) => base.map((b, j) => (j === i ? c : b));
    expect(engine.decide('p', facts(swap(0, { ...base[0]!, value: true })), claims).decision).toBe('deny');
    expect(engine.decide('p', facts(swap(1, { ...base[1]!, value: ['jailbreak'] })), claims).decision).toBe(
      'deny',
    );
    expect(engine.decide('p', facts(swap(2, { ...base[2]!, value: 101 })), claims).decision).toBe('deny');
    expect(engine.decide('p', facts(swap(3, { ...base[3]!, value: 1999.5 })), claims).decision).toBe('deny');
  });

  it('reports policies that do not compile or name unknown claims', () => {
    const bad = compilePolicySet(
      [
        policy('acme.org', {
          cedar: 'forbid (principal, action, resource) when {',
          responseRules: [{ name: 'x', claim: 'nope', decision: 'deny' }],
        }),
      ],
      claims,
    );
    expect(bad.problems.join('\n')).toMatch(
      /nope: no registered auditor declares this claim[\s\S]*does not parse/,
    );
    expect(
      validatePolicies({ a: 'forbid (principal, action, resource) when { context.unknown_claim };' }, schema),
    ).not.toEqual([]);
  });

  it('every preset tier and bundle compiles against the built-in claim names', () => {
    const all = indexVocabularies([{ ...vocab, vocabulary: [] }]).claims;
    const names = [
      'injection_detected',
      'injection_score',
      'injection.invisible_chars_detected',
      'injection.pattern_score',
      'injection.banned_substrings',
      'toxicity_detected',
      'toxicity_score',
      'toxicity.threat',
      'context_window_usage',
      'context_window_near_limit',
      'input_tokens',
      'judge_risk_score',
      'judge_risk_detected',
    ];
    const types: Record<string, string> = {
      'injection.banned_substrings': 'string_list',
      input_tokens: 'count',
      injection_detected: 'boolean',
      'injection.invisible_chars_detected': 'boolean',
      toxicity_detected: 'boolean',
      context_window_near_limit: 'boolean',
      judge_risk_detected: 'boolean',
    };
    for (const n of names)
      all.set(n, { type: (types[n] ?? 'score_normalized') as never, auditorId: 'x', phases: [] });
    for (const [auditor, tiers] of Object.entries(PRESETS)) {
      for (const [tier, preset] of Object.entries(tiers)) {
        const set = compilePolicySet(
          [policy('a.b', { responseRules: preset.responseRules, cedar: presetCedar(preset, all) })],
          all,
        );
        expect(set.problems, `${auditor} ${tier}`).toEqual([]);
      }
    }
    expect(bundlePreset('regulated_enterprise')?.responseRules.length).toBeGreaterThan(5);
  });
});

describe('Cedar policy reloads', () => {
  const at = (threshold: number) =>
    compilePolicySet(
      [
        policy('acme.org', {
          responseRules: [{ name: 'block', claim: 'injection_score', threshold, decision: 'deny' }],
        }),
      ],
      claims,
    ).policies;

  it('decides with the latest set after each reload (the two id slots alternate)', () => {
    const engine = new CedarEngine();
    for (const threshold of [0.9, 0.5, 0.7, 0.3]) {
      expect(engine.load('p', String(threshold), at(threshold), schema)).toEqual([]);
      expect(engine.decide('p', facts([score(threshold)]), claims).decision).toBe('deny');
      expect(engine.decide('p', facts([score(threshold - 0.01)]), claims).decision).toBe('allow');
    }
  });

  it('keeps the live set when a reload fails part-way (after its policies parsed)', () => {
    const engine = new CedarEngine();
    expect(engine.load('p', '1', at(0.5), schema)).toEqual([]);
    const broken = { entityTypes: 'not a schema' } as unknown as typeof schema;
    expect(engine.load('p', '2', at(0.9), broken).length).toBeGreaterThan(0);
    expect(engine.decide('p', facts([score(0.6)]), claims).decision).toBe('deny');
    expect(engine.load('p', '3', { bad: 'permit(' }, schema).length).toBeGreaterThan(0);
    expect(engine.decide('p', facts([score(0.6)]), claims).decision).toBe('deny');
    expect(engine.decide('p', facts([score(0.4)]), claims).decision).toBe('allow');
  });
});
