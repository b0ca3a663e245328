// The read side: informer caches (or, in benchmarks and unit tests, a plain
// in-memory cache with the same shape) and the agent index that answers
// "which agents does this principal see" without scanning every agent.
import type { Principal } from '../auth/principal.ts';
import type { PlatformAgent } from '../agents/model.ts';

export type CacheEvent = 'add' | 'update' | 'delete';

export interface CacheLike<T> {
  get(key: string): T | undefined;
  list(): T[];
  on(handler: (type: CacheEvent, obj: T) => void): void;
}

type Named = { metadata?: { namespace?: string; name?: string } };

const keyOf = (o: Named): string =>
  o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata?.name ?? '');

/** A cache fed by hand: for benchmarks and tests that run without a cluster. */
export class MemoryCache<T extends Named> implements CacheLike<T> {
  private readonly items = new Map<string, T>();
  private readonly handlers: ((type: CacheEvent, obj: T) => void)[] = [];

  get = (key: string): T | undefined => this.items.get(key);
  list = (): T[] => [...this.items.values()];
  on(handler: (type: CacheEvent, obj: T) => void): void {
    this.handlers.push(handler);
  }
  set(obj: T): void {
    const type = this.items.has(keyOf(obj)) ? 'update' : 'add';
    this.items.set(keyOf(obj), obj);
    for (const h of this.handlers) h(type, obj);
  }
  delete(obj: T): void {
    if (this.items.delete(keyOf(obj))) for (const h of this.handlers) h('delete', obj);
  }
}

/** Sorted keys, per-subject and per-namespace membership, kept current from cache events. */
export class AgentIndex {
  private readonly bySubject = new Map<string, Set<string>>();
  private readonly subjectsOf = new Map<string, string[]>();
  private sorted: string[] | undefined;
  /** Sorted keys per subject, built on first use and dropped when that subject's set changes. */
  private readonly sortedBySubject = new Map<string, string[]>();

  constructor(private readonly cache: CacheLike<PlatformAgent>) {
    cache.on((type, obj) => this.apply(type, obj));
    for (const a of cache.list()) this.apply('add', a);
  }

  private apply(type: CacheEvent, a: PlatformAgent): void {
    const key = keyOf(a);
    for (const s of this.subjectsOf.get(key) ?? []) {
      this.bySubject.get(s)?.delete(key);
      this.sortedBySubject.delete(s);
    }
    this.subjectsOf.delete(key);
    if (type !== 'update') this.sorted = undefined;
    if (type === 'delete') return;
    const subjects = (a.spec?.owners ?? []).map((o) => o.subject);
    this.subjectsOf.set(key, subjects);
    for (const s of subjects) {
      let set = this.bySubject.get(s);
      if (!set) this.bySubject.set(s, (set = new Set()));
      set.add(key);
      this.sortedBySubject.delete(s);
    }
  }

  allKeys(): string[] {
    this.sorted ??= [...this.subjectsOf.keys()].sort();
    return this.sorted;
  }

  /** Keys of every agent the principal may read, sorted. */
  visibleKeys(p: Principal): string[] {
    if (p.orgAdmin) return this.allKeys();
    const shared = this.bySubject.get(p.subject) ?? new Set<string>();
    if (p.workspaceAdminOf.length === 0) return this.sortedFor(p.subject, shared);
    const prefixes = p.workspaceAdminOf.map((ns) => `${ns}/`);
    return this.allKeys().filter((k) => shared.has(k) || prefixes.some((pre) => k.startsWith(pre)));
  }

  private sortedFor(subject: string, shared: Set<string>): string[] {
    let sorted = this.sortedBySubject.get(subject);
    if (!sorted) this.sortedBySubject.set(subject, (sorted = [...shared].sort()));
    return sorted;
  }

  agent(key: string): PlatformAgent | undefined {
    return this.cache.get(key);
  }
}

/** One page of sorted keys after the `continue` key. */
export function page(
  keys: readonly string[],
  limit: number,
  after?: string,
): { items: string[]; next?: string } {
  let lo = 0;
  if (after !== undefined) {
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((keys[mid] as string) <= after) lo = mid + 1;
      else hi = mid;
    }
  }
  const items = keys.slice(lo, lo + limit);
  const more = lo + limit < keys.length;
  return more ? { items, next: items.at(-1) as string } : { items };
}
