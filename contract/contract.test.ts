import { describe, expect, it } from 'vitest';
import { AGENT_ID_PATTERN, agentIdOf, formatAgentId, isValidAgentName, parseAgentId } from './agent-id.ts';
import { ANNOTATION, DEFAULT_NAME, FINALIZER, LABEL, PLURAL, REPORTING } from './kube.ts';

const long = (n: number): string => 'a'.repeat(n);

// Every case within the pattern's documented bound (a name of at most three
// labels of at most 63 characters), so pattern and parser must agree.
const IDS: [id: string, valid: boolean][] = [
  ['team.bot', true],
  ['team.agent.v2', true],
  ['t-1.a.b.c', true],
  ['0.0', true],
  [`${long(63)}.${long(63)}`, true],
  [`${long(64)}.bot`, false],
  ['team', false],
  ['.bot', false],
  ['team.', false],
  ['team..bot', false],
  ['team.bot.', false],
  ['team.-bot', false],
  ['team.bot-', false],
  ['team.a.-b', false],
  ['team.a-.b', false],
  ['-team.bot', false],
  ['Team.bot', false],
  ['team.bot_1', false],
  ['team.bo t', false],
  ['team.bot/x', false],
  ['', false],
];

describe('agent id', () => {
  it.each(IDS)('%s: parser and pattern agree (%s)', (id, valid) => {
    expect(parseAgentId(id) !== undefined).toBe(valid);
    expect(new RegExp(AGENT_ID_PATTERN).test(id)).toBe(valid);
  });

  it('parses what it formats, splitting at the first dot', () => {
    for (const agent of [
      { namespace: 'team', name: 'bot' },
      { namespace: 'team', name: 'agent.v2.canary' },
      { namespace: long(63), name: `${long(63)}.${long(63)}.${long(63)}.${long(61)}` },
    ]) {
      expect(parseAgentId(formatAgentId(agent))).toEqual(agent);
    }
    expect(agentIdOf({ metadata: { namespace: 'team', name: 'a.b' } })).toBe('team.a.b');
  });

  it('admits names beyond the pattern up to Kubernetes’ 253 characters, no further', () => {
    expect(isValidAgentName('team', `${long(64)}.a.b.c`)).toBe(true);
    expect(new RegExp(AGENT_ID_PATTERN).test(`team.${long(64)}`)).toBe(false);
    expect(isValidAgentName('team', long(253))).toBe(true);
    expect(isValidAgentName('team', long(254))).toBe(false);
  });
});

describe('kube names', () => {
  it('gives no two labels, annotations, finalizers or reporters the same value', () => {
    const values = [LABEL, ANNOTATION, FINALIZER, REPORTING].flatMap((table) => Object.values(table));
    expect(values.length).toBeGreaterThan(30);
    expect(new Set(values).size).toBe(values.length);
  });

  it('gives no two resources or object names the same value', () => {
    for (const table of [PLURAL, DEFAULT_NAME]) {
      const values = Object.values(table);
      expect(new Set(values).size).toBe(values.length);
    }
  });
});
