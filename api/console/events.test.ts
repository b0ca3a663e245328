import { describe, expect, it } from 'vitest';
import type { ConsoleEvent } from '../../contract/console.ts';
import { HttpError } from '../../base/http-error.ts';
import { matches, parseFilter, parseResumePoint, sseMessage } from './events.ts';

const event = (over: Partial<ConsoleEvent> = {}): ConsoleEvent => ({
  id: '7',
  timestamp: '2026-11-25T05:00:00.000Z',
  agent_id: 'ns.bot',
  subagent: null,
  type: 'chain_decision',
  severity: 'warning',
  auditor: 'injection-detector',
  auditors: ['injection-detector', 'toxicity-detector'],
  payload: {},
  ...over,
});

const status = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof HttpError ? err.status : -1;
  }
  return undefined;
};

describe('console filters', () => {
  it('keeps the named severity and above', () => {
    const f = parseFilter({ severity: 'warning' });
    expect(matches(f, event({ severity: 'warning' }))).toBe(true);
    expect(matches(f, event({ severity: 'critical' }))).toBe(true);
    expect(matches(f, event({ severity: 'info' }))).toBe(false);
  });

  it('matches an auditor anywhere in the chain, and a subagent exactly', () => {
    expect(matches(parseFilter({ auditor: 'toxicity-detector' }), event())).toBe(true);
    expect(matches(parseFilter({ auditor: 'pii-detector' }), event())).toBe(false);
    expect(matches(parseFilter({ subagent: 'researcher' }), event({ subagent: 'researcher' }))).toBe(true);
    expect(matches(parseFilter({ subagent: 'researcher' }), event())).toBe(false);
    expect(matches(parseFilter({ type: 'log,tool_call' }), event())).toBe(false);
    expect(matches(parseFilter({ type: 'chain_decision' }), event())).toBe(true);
  });

  it.each<Record<string, string>>([
    { severity: 'loud' },
    { auditor: 'Bad Id!' },
    { subagent: '-x' },
    { type: 'chain_decision,nope' },
    { type: '' },
  ])('refuses %j with 400', (query) => {
    expect(status(() => parseFilter(query))).toBe(400);
  });
});

describe('the resume point', () => {
  it('is the decimal id of an event already sent', () => {
    expect(parseResumePoint(undefined, 10)).toBeUndefined();
    expect(parseResumePoint('4', 10)).toBe(4);
    expect(parseResumePoint('10', 10)).toBe(10);
  });

  it.each(['', 'abc', '-1', '1e3', '11', '99999999999999999'])('refuses %s with 400', (raw) => {
    expect(status(() => parseResumePoint(raw, 10))).toBe(400);
  });
});

it('frames one event as one SSE message: its id, its JSON on one data line', () => {
  const text = sseMessage(event({ payload: { line: 'a\nb' } }));
  expect(text.startsWith('id: 7\ndata: {')).toBe(true);
  expect(text.endsWith('}\n\n')).toBe(true);
  expect(text.split('\n')).toHaveLength(4);
});
