import { describe, expect, it } from 'vitest';
import { defaultAuditLogPath } from './open.ts';
import { RecentWindow, SparseMarks } from './window.ts';

describe('the recent window', () => {
  it('keeps the newest items, oldest first, never more than its capacity', () => {
    const w = new RecentWindow<number>(3);
    for (let i = 1; i <= 10; i++) w.push(i);
    expect(w.size).toBe(3);
    expect([w.at(0), w.at(1), w.at(2)]).toEqual([8, 9, 10]);
    expect(() => w.at(3)).toThrow(RangeError);
  });
});

describe('sparse file marks', () => {
  it('stays within its maximum by doubling the stride', () => {
    const marks = new SparseMarks(4, 8);
    for (let seq = 1; seq <= 10_000; seq++) marks.note(seq, (seq - 1) * 10);
    expect(marks.size).toBeLessThanOrEqual(8);
    expect(marks.stride).toBe(2048);
  });

  it('cuts the file before an offset into blocks, newest first, the first from byte 0', () => {
    const marks = new SparseMarks(4, 100);
    for (let seq = 1; seq <= 12; seq++) marks.note(seq, (seq - 1) * 10);
    expect([...marks.blocksBefore(95)]).toEqual([
      { firstSeq: 9, start: 80, end: 95 },
      { firstSeq: 5, start: 40, end: 80 },
      { firstSeq: 1, start: 0, end: 40 },
    ]);
    expect([...marks.blocksBefore(40)]).toEqual([{ firstSeq: 1, start: 0, end: 40 }]);
    expect([...new SparseMarks().blocksBefore(0)]).toEqual([]);
  });
});

describe('the default audit log location', () => {
  it('is under XDG_STATE_HOME, else ~/.local/state', () => {
    expect(defaultAuditLogPath({ XDG_STATE_HOME: '/state' }, '/home/u')).toBe(
      '/state/agent-platform/audit.jsonl',
    );
    expect(defaultAuditLogPath({}, '/home/u')).toBe('/home/u/.local/state/agent-platform/audit.jsonl');
  });
});
