import { describe, expect, it } from 'vitest';
import { INJECTION_VOCABULARY } from '../auditors/injection/vocabulary.ts';
import type { Vocabulary } from '../auditors/sdk/types.ts';
import { defaultPolicySource } from './policy-source.ts';

const injection: Vocabulary = {
  auditor_id: 'injection',
  version: '1',
  phases: ['request', 'response'],
  vocabulary: INJECTION_VOCABULARY,
};

describe('defaultPolicySource', () => {
  it('has no policy (fail closed) until every auditor of the chain served its vocabulary', () => {
    const chain: { id: string; vocabulary?: Vocabulary }[] = [{ id: 'injection' }];
    const source = defaultPolicySource(() => chain);
    expect(source.current()).toBeUndefined();
    expect(source.problem()).toBe('default policy waits for the vocabulary of injection');
    chain[0]!.vocabulary = injection;
    expect(source.problem()).toBe('');
    const policy = source.current();
    expect(policy?.policy_id).toBe('platform:default');
    expect(policy?.chain[0]?.spec.responseRules?.map((r) => r.name)).toContain('injection-block');
    expect(source.current()).toBe(policy);
  });
});
