import { describe, expect, it } from 'vitest';
import { INJECTION_VOCABULARY } from '../auditors/injection/vocabulary.ts';
import { LLM_JUDGE_VOCABULARY } from '../auditors/llm-judge/vocabulary.ts';
import { MODEL_CONTEXT_VOCABULARY } from '../auditors/model-context/vocabulary.ts';
import type { Vocabulary, VocabularyEntry } from '../auditors/sdk/types.ts';
import { TOXICITY_VOCABULARY } from '../auditors/toxicity/vocabulary.ts';
import { compilePolicySet } from './cedar-gen.ts';
import { CedarEngine, validatePolicies } from './cedar-engine.ts';
import { cedarSchema, indexVocabularies } from './cedar-schema.ts';
import { DEFAULT_POLICY_ID, defaultPolicy } from './default-policy.ts';

const vocab = (auditor_id: string, vocabulary: VocabularyEntry[]): Vocabulary => ({
  auditor_id,
  version: '1',
  phases: ['request', 'response'],
  vocabulary,
});
const SYSTEM = [vocab('model-context', MODEL_CONTEXT_VOCABULARY), vocab('llm-judge', LLM_JUDGE_VOCABULARY)];
const DEFAULT_CHAIN = [
  vocab('injection', INJECTION_VOCABULARY),
  vocab('toxicity', TOXICITY_VOCABULARY),
  ...SYSTEM,
];

function compiled(vocabularies: Vocabulary[]) {
  const { claims } = indexVocabularies(vocabularies);
  const policy = defaultPolicy(claims);
  const set = compilePolicySet([policy], claims);
  return { claims, policy, set, schemaProblems: validatePolicies(set.policies, cedarSchema(claims)) };
}

describe('defaultPolicy', () => {
  it('compiles against the default chain and blocks a detected injection, allowing a clean request', () => {
    const { claims, policy, set, schemaProblems } = compiled(DEFAULT_CHAIN);
    expect(set.problems).toEqual([]);
    expect(schemaProblems).toEqual([]);
    expect(policy.id).toBe(DEFAULT_POLICY_ID);
    const engine = new CedarEngine();
    expect(engine.load(policy.id, policy.version, set.policies, cedarSchema(claims))).toEqual([]);
    const facts = (detected: boolean) => ({
      agentId: 'ns.a',
      workspaceId: 'ns',
      phase: 'request',
      claims: [
        { name: 'injection_detected', type: 'boolean' as const, value: detected },
        { name: 'injection.invisible_chars_detected', type: 'boolean' as const, value: false },
        { name: 'toxicity_detected', type: 'boolean' as const, value: false },
        { name: 'judge_risk_detected', type: 'boolean' as const, value: false },
        { name: 'context_window_usage', type: 'score_normalized' as const, value: 0.1 },
      ],
    });
    expect(engine.decide(policy.id, facts(true), claims).decision).toBe('deny');
    expect(engine.decide(policy.id, facts(false), claims)).toMatchObject({ decision: 'allow' });
  });

  it('leaves out rules on claims the chain does not declare, so a chain of system auditors still compiles', () => {
    const { policy, set, schemaProblems } = compiled(SYSTEM);
    expect(set.problems).toEqual([]);
    expect(schemaProblems).toEqual([]);
    const ruleClaims = (policy.spec.responseRules ?? []).map((r) => r.claim);
    expect(ruleClaims.length).toBeGreaterThan(0);
    expect(ruleClaims.some((c) => c.startsWith('injection') || c.startsWith('toxicity'))).toBe(false);
    expect(Object.keys(policy.spec.detection ?? {}).every((c) => !c.startsWith('injection'))).toBe(true);
  });

  it('names its content in its version: another chain, another version; the same chain, the same one', () => {
    expect(compiled(SYSTEM).policy.version).not.toBe(compiled(DEFAULT_CHAIN).policy.version);
    expect(compiled(SYSTEM).policy.version).toBe(compiled(SYSTEM).policy.version);
    expect(compiled([]).policy.spec.responseRules).toEqual([]);
  });
});
