import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deepEqual } from './deep-equal.ts';

describe('deepEqual', () => {
  const cases: [unknown, unknown][] = [
    [1, 1],
    [1, '1'],
    [NaN, NaN],
    [null, undefined],
    [null, null],
    [
      [1, [2, { a: 3 }]],
      [1, [2, { a: 3 }]],
    ],
    [
      [1, 2],
      [2, 1],
    ],
    [
      { a: 1, b: [true] },
      { b: [true], a: 1 },
    ],
    [{ a: 1 }, { a: 1, b: undefined }],
    [{ a: undefined }, { b: undefined }],
    [[], {}],
    [{}, {}],
    ['x', 'x'],
    [new Date(5), new Date(5)],
  ];
  it.each(cases)('agrees with node:util isDeepStrictEqual on plain data (%j, %j)', (a, b) => {
    expect(deepEqual(a, b)).toBe(isDeepStrictEqual(a, b));
  });
});
