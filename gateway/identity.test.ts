import { describe, expect, it } from 'vitest';
import { jwtExpiry, renewalDelayMs, retryDelayMs } from './identity.ts';

describe('workload identity timing', () => {
  it('renews at 80 % of a token’s life and backs off from 2 s to at most 60 s after failures', () => {
    expect(renewalDelayMs(3600)).toBe(2_880_000);
    expect(renewalDelayMs(0)).toBe(1_000);
    expect([1, 2, 3, 6, 7, 20].map(retryDelayMs)).toEqual([2_000, 4_000, 8_000, 60_000, 60_000, 60_000]);
  });

  it('reads a JWT’s exp without trusting it, and nothing from a malformed one', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'x', exp: 1_900_000_000 })).toString('base64url');
    expect(jwtExpiry(`e30.${payload}.sig`)).toBe(1_900_000_000);
    expect(jwtExpiry('not-a-jwt')).toBeUndefined();
    expect(jwtExpiry(`e30.${Buffer.from('{"exp":"soon"}').toString('base64url')}.s`)).toBeUndefined();
  });
});
