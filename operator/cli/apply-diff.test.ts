import { describe, expect, it } from 'vitest';
import { editScript, unifiedDiff } from './apply-diff.ts';

const labels = { from: 'a (live)', to: 'a (after apply)' };
const lines = (n: number, from = 1): string =>
  Array.from({ length: n }, (_, i) => `l${i + from}`).join('\n') + '\n';

describe('unified diff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', labels)).toBe('');
  });

  it('shows one change with three lines of context, removal before addition', () => {
    const from = lines(10);
    const to = from.replace('l5\n', 'five\n');
    expect(unifiedDiff(from, to, labels)).toBe(
      [
        '--- a (live)',
        '+++ a (after apply)',
        '@@ -2,7 +2,7 @@',
        ' l2',
        ' l3',
        ' l4',
        '-l5',
        '+five',
        ' l6',
        ' l7',
        ' l8',
        '',
      ].join('\n'),
    );
  });

  it('splits changes far apart into hunks and joins close ones', () => {
    const from = lines(20);
    const far = from.replace('l2\n', 'two\n').replace('l18\n', 'eighteen\n');
    expect(unifiedDiff(from, far, labels).match(/^@@/gm)).toHaveLength(2);
    const near = from.replace('l5\n', 'five\n').replace('l10\n', 'ten\n');
    expect(unifiedDiff(from, near, labels).match(/^@@/gm)).toHaveLength(1);
  });

  it('numbers insertions and deletions at the edges as diff -u does', () => {
    expect(unifiedDiff('', 'a\nb\n', labels)).toBe(
      '--- a (live)\n+++ a (after apply)\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
    expect(unifiedDiff('a\nb\n', '', labels)).toBe(
      '--- a (live)\n+++ a (after apply)\n@@ -1,2 +0,0 @@\n-a\n-b\n',
    );
    expect(unifiedDiff('a\n', 'a\nb\n', labels)).toBe(
      '--- a (live)\n+++ a (after apply)\n@@ -1 +1,2 @@\n a\n+b\n',
    );
  });

  it('keeps every common line (a longest common subsequence)', () => {
    const ops = editScript(['a', 'b', 'c', 'd'], ['b', 'x', 'd']);
    expect(ops.filter((o) => o.op === ' ').map((o) => o.line)).toEqual(['b', 'd']);
    expect(ops.map((o) => `${o.op}${o.line}`)).toEqual(['-a', ' b', '-c', '+x', ' d']);
  });
});
