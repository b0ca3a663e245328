// The credential proxy's cache of injected credentials (sidecar material,
// client_credentials and exchanged tokens). A value is served until a share
// of its lifetime has passed (`refreshRatio`, 80 %), then the next caller
// fetches anew; concurrent callers of one key share that single fetch. A
// failed refresh keeps serving the old value while it lives, unless the
// failure is final (`keepOnError` says no: a credential withdrawn, a grant
// revoked). `invalidate` forgets a key and any fetch in flight for it, so the
// fetch after a 401 from the target is a new one. The clock is injected.

export interface Loaded<V> {
  value: V;
  /** How long the value may be used; 0 or less: used once, not kept. */
  lifetimeMs: number;
}

export interface CredentialCacheOptions {
  now: () => number;
  /** Share of the lifetime after which the value is fetched again (0-1). */
  refreshRatio?: number;
  /** Keys kept at most; the least recently stored goes first. */
  maxEntries?: number;
  /** True for a failure the old value may outlive (the source is down); false drops it. */
  keepOnError?: (err: unknown) => boolean;
}

interface Entry<V> {
  value: V;
  refreshAtMs: number;
  expiresAtMs: number;
}

export class CredentialCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V>>();

  constructor(private readonly o: CredentialCacheOptions) {}

  /** The cached value of `key`, or the one `load` fetches (one fetch per key at a time). */
  get(key: string, load: () => Promise<Loaded<V>>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && this.o.now() < entry.refreshAtMs) return Promise.resolve(entry.value);
    const running = this.inflight.get(key);
    if (running) return running;
    const flight: Promise<V> = load()
      .then(
        (loaded) => this.store(key, flight, loaded),
        (err: unknown) => this.fallback(key, flight, err),
      )
      .finally(() => {
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
      });
    this.inflight.set(key, flight);
    return flight;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    this.inflight.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, flight: Promise<V>, loaded: Loaded<V>): V {
    // A fetch that began before an invalidate is not kept: it may be what the target refused.
    if (this.inflight.get(key) !== flight) return loaded.value;
    this.entries.delete(key);
    if (loaded.lifetimeMs <= 0) return loaded.value;
    const now = this.o.now();
    const ratio = this.o.refreshRatio ?? 0.8;
    this.entries.set(key, {
      value: loaded.value,
      refreshAtMs: now + loaded.lifetimeMs * ratio,
      expiresAtMs: now + loaded.lifetimeMs,
    });
    this.evict();
    return loaded.value;
  }

  private fallback(key: string, flight: Promise<V>, err: unknown): V {
    const entry = this.entries.get(key);
    const current = this.inflight.get(key) === flight;
    if (entry && current && this.o.now() < entry.expiresAtMs && (this.o.keepOnError?.(err) ?? false)) {
      return entry.value;
    }
    if (current) this.entries.delete(key);
    throw err;
  }

  private evict(): void {
    const max = this.o.maxEntries ?? 1024;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= max) return;
      this.entries.delete(key);
    }
  }
}
