// Deciding claims as the Gateway does, and the claim fixtures' format.
import { describe, expect, it } from 'vitest';
import { indexVocabularies } from '../../policy/cedar-schema.ts';
import type { AuditorOutcome } from '../../evidence/types.ts';
import { CliError } from './errors.ts';
import { parsePolicyText } from './policy-file.ts';
import {
  evaluator,
  fileChain,
  fixturesOf,
  inferType,
  knownVocabularies,
  targetDoc,
} from './policy-decide.ts';
import { withAuditorFailures } from '../../policy/auditor-failures.ts';

const { claims } = indexVocabularies(knownVocabularies());
const doc = (name: string, scope: string, extra = ''): string =>
  `kind: AuditorPolicy\nmetadata: { name: ${name}, namespace: ns }\nspec:\n  scope: ${scope}\n  scopeId: x\n${extra}`;
const RULE = '  responseRules:\n    - { name: r, claim: injection_score, threshold: 0.5, decision: deny }\n';

describe('policy test decisions', () => {
  it('picks the policy to test and puts the file’s org policies above it', () => {
    const { docs } = parsePolicyText(`${doc('org', 'org')}---\n${doc('ws', 'workspace', RULE)}`, 'f', 'ns');
    const target = targetDoc(docs, undefined);
    expect(target.id).toBe('ns.ws');
    expect(fileChain(docs, target).map((p) => p.id)).toEqual(['ns.org', 'ns.ws']);
    expect(targetDoc(docs, 'org').id).toBe('ns.org');
    const two = parsePolicyText(`${doc('a', 'workspace')}---\n${doc('b', 'workspace')}`, 'f', 'ns').docs;
    expect(() => targetDoc(two, undefined)).toThrow(CliError);
    expect(() => targetDoc(two, 'c')).toThrow(/no policy 'c' in the file/);
  });

  it('decides like the Gateway: forbids named, a failed auditor a deny, a missing claim a KeyError', () => {
    const { docs } = parsePolicyText(doc('ws', 'workspace', RULE), 'f', 'ns');
    const ev = evaluator([docs[0]!.record], claims);
    const request = (score: number) => ({
      agentId: 'ns.a',
      workspaceId: 'ns',
      phase: 'request',
      claims: [{ name: 'injection_score', type: 'score_normalized' as const, value: score }],
    });
    expect(ev.decide(request(0.7))).toEqual({
      decision: 'deny',
      reasons: ['forbid: ns.ws/r'],
      determining: ['ns.ws/r'],
    });
    expect(ev.decide(request(0.1)).decision).toBe('allow');
    const failed = {
      auditor_id: 'toxicity',
      status: 'error',
      error: { code: 'TIMEOUT', message: 'late' },
    } as AuditorOutcome;
    expect(ev.decide(request(0.1), [failed]).reasons).toEqual(['AuditorError: toxicity: TIMEOUT: late']);
    expect(ev.decide({ ...request(0.1), claims: [] }).reasons[0]).toMatch(
      /^KeyError: claim 'injection_score'/,
    );
  });

  it('denies every request of a chain that does not compile, with the problem', () => {
    const { docs } = parsePolicyText(
      doc(
        'ws',
        'workspace',
        '  responseRules:\n    - { name: r, claim: nope_score, threshold: 0.5, decision: deny }\n',
      ),
      'f',
      'ns',
    );
    const ev = evaluator([docs[0]!.record], claims);
    expect(ev.problems).toEqual([
      'policy ns.ws, rule r: nope_score: no registered auditor declares this claim',
    ]);
    expect(ev.decide({ agentId: 'a', workspaceId: 'w', phase: 'request', claims: [] }).reasons[0]).toMatch(
      /^PolicyError: /,
    );
  });

  it('keeps an allow without failed auditors as it is', () => {
    const d = { decision: 'allow' as const, reasons: [], determining: ['p'] };
    expect(withAuditorFailures(d, [])).toBe(d);
  });
});

describe('claim fixtures', () => {
  it('types claims by their vocabulary, else by their value', () => {
    const [f] = fixturesOf(
      [
        {
          name: 'n',
          claims: {
            injection_score: 1,
            made_up: 3,
            flag: true,
            words: ['a'],
            c: { value: 0.4, confidence: 0.5 },
          },
        },
      ],
      'f',
      claims,
    );
    expect(f!.claims).toEqual([
      { name: 'injection_score', type: 'score_normalized', value: 1 },
      { name: 'made_up', type: 'count', value: 3 },
      { name: 'flag', type: 'boolean', value: true },
      { name: 'words', type: 'string_list', value: ['a'] },
      { name: 'c', type: 'score_normalized', value: 0.4, confidence: 0.5 },
    ]);
    expect(f).toMatchObject({ phase: 'request', agentId: 'fixture.agent', workspaceId: 'fixture' });
    expect(inferType('x')).toBe('string');
    expect(inferType({})).toBe('object');
  });

  it('accepts {fixtures: [...]} and refuses malformed fixtures with exit 2', () => {
    expect(
      fixturesOf({ fixtures: [{ name: 'a', claims: {}, expect: 'deny' }] }, 'f', claims)[0]!.expect,
    ).toBe('deny');
    for (const bad of [{}, [{ name: 'a' }], [{ name: 'a', claims: {}, expect: 'maybe' }]]) {
      try {
        fixturesOf(bad, 'f.yaml', claims);
        expect.unreachable();
      } catch (err) {
        expect((err as CliError).exitCode).toBe(2);
      }
    }
  });

  it('adds registered auditors’ claims from the Verifier’s list, never over a built-in', () => {
    const v = knownVocabularies([
      { auditor_id: 'pii', claims: [{ name: 'pii_detected', type: 'boolean' }] },
      { auditor_id: 'injection', builtin: true, claims: [{ name: 'x', type: 'boolean' }] },
    ]);
    expect(v.filter((x) => x.auditor_id === 'pii')[0]!.vocabulary[0]).toMatchObject({
      name: 'pii_detected',
      type: 'boolean',
    });
    expect(v.filter((x) => x.auditor_id === 'injection')).toHaveLength(1);
  });
});
