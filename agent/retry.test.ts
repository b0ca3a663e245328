import { describe, expect, it } from 'vitest';
import { backoffDelaysMs, isRetryable } from './retry.ts';

describe('start-up retries', () => {
  it('waits between tries, doubling up to the cap', () => {
    expect(backoffDelaysMs(6, 500)).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(backoffDelaysMs(4, 5000)).toEqual([5000, 8000, 8000]);
    expect(backoffDelaysMs(1, 500)).toEqual([]);
  });

  it('tries again only while nothing listens yet', () => {
    expect(isRetryable('ECONNREFUSED')).toBe(true);
    expect(isRetryable('timeout')).toBe(false);
    expect(isRetryable('CERT_HAS_EXPIRED')).toBe(false);
  });
});
