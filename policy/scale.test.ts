import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaleDecimal } from './scale.ts';

describe('Cedar decimal scaling', () => {
  it('scales by 1000 and rounds half away from zero', () => {
    expect(scaleDecimal(0.8)).toBe(800);
    expect(scaleDecimal(0.0005)).toBe(1);
    expect(scaleDecimal(-0.0005)).toBe(-1);
    expect(scaleDecimal(0.0004)).toBe(0);
    expect(scaleDecimal(1.0005)).toBe(1001);
    expect(scaleDecimal(0.1235)).toBe(124);
    expect(scaleDecimal(1e-7)).toBe(0);
    expect(scaleDecimal(1)).toBe(1000);
    expect(scaleDecimal(-0)).toBe(0);
    expect(() => scaleDecimal(Number.NaN)).toThrow(RangeError);
  });

  it('maps every three-decimal value k/1000 to k', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (k) => scaleDecimal(k / 1000) === k),
    );
  });

  it('is monotonic', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        (a, b) => (a <= b ? scaleDecimal(a) <= scaleDecimal(b) : scaleDecimal(a) >= scaleDecimal(b)),
      ),
    );
  });

  it('agrees with exact decimal rounding of the shortest representation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        const x = n / 10_000; // four decimals
        const tenth = n % 10;
        const expected = Math.floor(n / 10) + (tenth >= 5 ? 1 : 0);
        return scaleDecimal(x) === expected;
      }),
    );
  });
});
