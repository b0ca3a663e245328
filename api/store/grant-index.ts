// DelegationGrants by (user, service), kept current from cache events: the
// token exchange finds the grants of one delegation without scanning every
// grant (decision 143). One index per cache, built on first use.
import type { DelegationGrant } from '../../crds/generated/types.ts';
import type { CacheEvent, CacheLike } from './cache.ts';

type Grant = DelegationGrant & { metadata: { namespace?: string; name?: string } };

const delegationKey = (user: string, service: string): string => `${user}\n${service}`;
const objectKey = (g: Grant): string => `${g.metadata.namespace ?? ''}/${g.metadata.name ?? ''}`;

class GrantIndex {
  private readonly byDelegation = new Map<string, Map<string, Grant>>();
  /** Where each grant is filed, so an update that changes its user or service moves it. */
  private readonly filedUnder = new Map<string, string>();

  constructor(cache: CacheLike<Grant>) {
    cache.on((type, g) => this.apply(type, g));
    for (const g of cache.list()) this.apply('add', g);
  }

  private apply(type: CacheEvent, g: Grant): void {
    const key = objectKey(g);
    const previous = this.filedUnder.get(key);
    if (previous !== undefined) {
      const set = this.byDelegation.get(previous);
      set?.delete(key);
      if (set?.size === 0) this.byDelegation.delete(previous);
      this.filedUnder.delete(key);
    }
    if (type === 'delete') return;
    const under = delegationKey(g.spec.user, g.spec.service);
    let set = this.byDelegation.get(under);
    if (!set) this.byDelegation.set(under, (set = new Map()));
    set.set(key, g);
    this.filedUnder.set(key, under);
  }

  of(user: string, service: string): DelegationGrant[] {
    return [...(this.byDelegation.get(delegationKey(user, service))?.values() ?? [])];
  }
}

const indexes = new WeakMap<CacheLike<DelegationGrant>, GrantIndex>();

/** The grants in the cache of `user`'s delegation of `service` (to any agent). */
export function grantsOfDelegation(
  cache: CacheLike<DelegationGrant>,
  user: string,
  service: string,
): DelegationGrant[] {
  let index = indexes.get(cache);
  if (!index) indexes.set(cache, (index = new GrantIndex(cache as CacheLike<Grant>)));
  return index.of(user, service);
}
