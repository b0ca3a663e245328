import { describe, expect, it } from 'vitest';
import {
  afterScroll,
  atBottom,
  auditorProblem,
  emptyLog,
  filterQuery,
  isAfter,
  NO_FILTERS,
  pause,
  receive,
  resume,
  summary,
  type ConsoleEvent,
} from './console-model.ts';

const ev = (id: number, extra: Partial<ConsoleEvent> = {}): ConsoleEvent => ({
  id: String(id),
  timestamp: '2026-11-28T10:00:00Z',
  agent_id: 'default.bot',
  subagent: null,
  type: 'tool_call',
  severity: 'info',
  auditor: null,
  auditors: [],
  payload: { method: 'GET', destination: 'api.example.com:443', path: `/items/${id}`, outcome: 'allowed' },
  ...extra,
});
const ids = (events: ConsoleEvent[]): string[] => events.map((e) => e.id);

describe('filters', () => {
  it('sends only the filters set, as the stream and event list take them', () => {
    expect(filterQuery(NO_FILTERS)).toBe('');
    expect(filterQuery({ severity: 'warning', auditor: ' injection ', subagent: 'research er' })).toBe(
      'severity=warning&auditor=injection&subagent=research+er',
    );
  });

  it('says in words why an auditor id cannot be sent', () => {
    expect(auditorProblem('')).toBe('');
    expect(auditorProblem('llm-judge')).toBe('');
    expect(auditorProblem('Bad Auditor')).toMatch(/lower-case letters/);
  });
});

describe('isAfter', () => {
  it('orders decimal ids of any length', () => {
    expect(isAfter('10', '9')).toBe(true);
    expect(isAfter('9', '10')).toBe(false);
    expect(isAfter('12', '12')).toBe(false);
    expect(isAfter('1', '')).toBe(true);
    expect(isAfter('90071992547409931', '90071992547409930')).toBe(true);
  });
});

describe('the log', () => {
  it('shows new events in order and never one it has already (a resumed stream repeating itself)', () => {
    let s = receive(emptyLog(), [ev(1), ev(2)]);
    s = receive(s, [ev(2), ev(3)]);
    s = receive(s, [ev(1)]);
    expect(ids(s.shown)).toEqual(['1', '2', '3']);
    expect(s.lastId).toBe('3');
  });

  it('starts after the id the event list ended at', () => {
    const s = receive(emptyLog(500, '5'), [ev(4), ev(5), ev(6)]);
    expect(ids(s.shown)).toEqual(['6']);
  });

  it('keeps at most `cap` events, dropping the oldest', () => {
    const s = receive(emptyLog(3), [ev(1), ev(2), ev(3), ev(4), ev(5)]);
    expect(ids(s.shown)).toEqual(['3', '4', '5']);
  });

  it('holds events back while paused, counts them, and shows them on resume', () => {
    let s = receive(emptyLog(), [ev(1)]);
    s = pause(s);
    s = receive(s, [ev(2), ev(3)]);
    expect(ids(s.shown)).toEqual(['1']);
    expect(s.newCount).toBe(2);
    s = afterScroll(s, false);
    s = resume(s);
    expect(ids(s.shown)).toEqual(['1', '2', '3']);
    expect(s).toMatchObject({ paused: false, newCount: 0, held: [], follow: true });
  });

  it('bounds what it holds while paused too, and still counts every new event', () => {
    let s = pause(emptyLog(2));
    s = receive(s, [ev(1), ev(2), ev(3), ev(4)]);
    expect(ids(s.held)).toEqual(['3', '4']);
    expect(s.newCount).toBe(4);
  });

  it('stops following when scrolled up and follows again at the bottom', () => {
    let s = emptyLog();
    expect(s.follow).toBe(true);
    s = afterScroll(s, atBottom({ scrollTop: 100, clientHeight: 300, scrollHeight: 1000 }));
    expect(s.follow).toBe(false);
    s = afterScroll(s, atBottom({ scrollTop: 697, clientHeight: 300, scrollHeight: 1000 }));
    expect(s.follow).toBe(true);
  });
});

describe('summary', () => {
  it('says what each event is in a line', () => {
    expect(summary(ev(1))).toBe('GET api.example.com:443 /items/1 allowed');
    const decision = ev(2, {
      type: 'chain_decision',
      payload: { decision: 'deny', blocked: true, reasons: ['injection_detected'] },
    });
    expect(summary(decision)).toBe('decision deny (blocked): injection_detected');
    expect(summary(ev(3, { type: 'log', payload: { line: 'model call gpt' } }))).toBe('model call gpt');
    expect(
      summary(ev(4, { type: 'approval_requested', payload: { kind: 'consent', service: 'slack' } })),
    ).toBe('consent requested: slack');
  });
});
