// Rate limiters for the work queue, after client-go's
// DefaultControllerRateLimiter: the larger of a per-item exponential backoff
// (5 ms doubling to 1000 s) and a global token bucket (10 per second, burst
// 100). Pure: time comes from a clock function so tests control it.

export type Clock = () => number;

export interface RateLimiter<K> {
  /** Milliseconds to wait before `item` may be processed again; counts a failure. */
  whenMs(item: K): number;
  /** Clears the failure history of `item` (after a successful reconcile). */
  forget(item: K): void;
  /** How many times `item` has been rate limited since it was last forgotten. */
  retries(item: K): number;
}

/** Per-item exponential backoff: base · 2^failures, capped at max. */
export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(
    readonly baseDelayMs = 5,
    readonly maxDelayMs = 1_000_000,
  ) {}

  whenMs(item: K): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    // 2^exp overflows to Infinity long before it matters; the cap handles both.
    const delayMs = this.baseDelayMs * Math.pow(2, exp);
    return Number.isFinite(delayMs) ? Math.min(delayMs, this.maxDelayMs) : this.maxDelayMs;
  }

  forget(item: K): void {
    this.failures.delete(item);
  }

  retries(item: K): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * Global token bucket shared by every item: `ratePerSecond` tokens refill per
 * second up to `burst`. Reserving a token in the future yields the wait.
 */
export class TokenBucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private lastRefillMs: number;

  constructor(
    readonly ratePerSecond = 10,
    readonly burst = 100,
    private readonly clock: Clock = Date.now,
  ) {
    this.tokens = burst;
    this.lastRefillMs = clock();
  }

  whenMs(_item: K): number {
    const nowMs = this.clock();
    const elapsedMs = Math.max(0, nowMs - this.lastRefillMs);
    this.tokens = Math.min(this.burst, this.tokens + (elapsedMs * this.ratePerSecond) / 1000);
    this.lastRefillMs = nowMs;
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    // Negative tokens are reservations: wait until the refill covers them.
    return Math.ceil((-this.tokens * 1000) / this.ratePerSecond);
  }

  forget(_item: K): void {}

  retries(_item: K): number {
    return 0;
  }
}

/** The longest wait any of its limiters asks for. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  constructor(private readonly limiters: RateLimiter<K>[]) {}

  whenMs(item: K): number {
    return Math.max(0, ...this.limiters.map((l) => l.whenMs(item)));
  }

  forget(item: K): void {
    for (const l of this.limiters) l.forget(item);
  }

  retries(item: K): number {
    return Math.max(0, ...this.limiters.map((l) => l.retries(item)));
  }
}

export interface DefaultRateLimiterOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  ratePerSecond?: number;
  burst?: number;
  clock?: Clock;
}

/** client-go's default controller rate limiter. */
export function defaultControllerRateLimiter<K>(options: DefaultRateLimiterOptions = {}): RateLimiter<K> {
  return new MaxOfRateLimiter<K>([
    new ItemExponentialRateLimiter<K>(options.baseDelayMs ?? 5, options.maxDelayMs ?? 1_000_000),
    new TokenBucketRateLimiter<K>(
      options.ratePerSecond ?? 10,
      options.burst ?? 100,
      options.clock ?? Date.now,
    ),
  ]);
}
