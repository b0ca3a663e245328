import { describe, expect, it } from 'vitest';
import { CallLimiter } from './limiter.ts';

describe('CallLimiter', () => {
  it('refuses the call over the cap and frees a slot once per release', () => {
    const limiter = new CallLimiter(2);
    const a = limiter.tryAcquire();
    const b = limiter.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(limiter.tryAcquire()).toBeUndefined();
    a!();
    a!();
    expect(limiter.active).toBe(1);
    expect(limiter.tryAcquire()).toBeDefined();
    expect(limiter.tryAcquire()).toBeUndefined();
  });
});
