import { describe, expect, it } from 'vitest';
import {
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
  defaultControllerRateLimiter,
} from './rate-limiter.ts';

describe('ItemExponentialRateLimiter', () => {
  it('doubles the delay per failure from 5 ms', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    expect([1, 2, 3, 4, 5].map(() => limiter.whenMs('a'))).toEqual([5, 10, 20, 40, 80]);
    expect(limiter.retries('a')).toBe(5);
  });

  it('caps the delay at 1000 s, even after thousands of failures', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = limiter.whenMs('a');
    expect(last).toBe(1_000_000);
  });

  it('tracks items separately and forgets an item after success', () => {
    const limiter = new ItemExponentialRateLimiter<string>();
    limiter.whenMs('a');
    limiter.whenMs('a');
    expect(limiter.whenMs('b')).toBe(5);
    limiter.forget('a');
    expect(limiter.retries('a')).toBe(0);
    expect(limiter.whenMs('a')).toBe(5);
  });
});

describe('TokenBucketRateLimiter', () => {
  it('lets a burst through at once, then spaces items at the refill rate', () => {
    let nowMs = 0;
    const bucket = new TokenBucketRateLimiter<string>(10, 3, () => nowMs);
    expect([bucket.whenMs('a'), bucket.whenMs('b'), bucket.whenMs('c')]).toEqual([0, 0, 0]);
    expect(bucket.whenMs('d')).toBe(100);
    expect(bucket.whenMs('e')).toBe(200);
    nowMs = 1000; // refilled 10 tokens, capped by the burst and the two reservations
    expect(bucket.whenMs('f')).toBe(0);
  });
});

describe('default controller rate limiter', () => {
  it('takes the larger of per-item backoff and the global bucket', () => {
    let nowMs = 0;
    const limiter = new MaxOfRateLimiter<string>([
      new ItemExponentialRateLimiter<string>(5, 1_000_000),
      new TokenBucketRateLimiter<string>(10, 1, () => nowMs),
    ]);
    expect(limiter.whenMs('a')).toBe(5);
    expect(limiter.whenMs('b')).toBe(100); // bucket empty: 100 ms > 5 ms backoff
    nowMs = 10_000;
    expect(limiter.whenMs('a')).toBe(10);
  });

  it('starts at 5 ms like client-go', () => {
    expect(defaultControllerRateLimiter<string>().whenMs('x')).toBe(5);
  });
});
