// An index of the emails and handles agents hold (status) or ask for (spec or
// derived), kept up to date from the agent informer's events, so checking one
// agent's claim looks at the few agents naming the same values instead of
// every agent (1,000 agents: thousands of reconciles × 1,000 comparisons).
import { objectKey } from '../../base/controller/keys.ts';
import { wantedIdentity } from './identity.ts';
import type { PlatformAgent } from './types.ts';

export class IdentityIndex {
  private readonly byValue = new Map<string, Set<string>>();
  private readonly valuesOf = new Map<string, string[]>();

  constructor(
    private readonly emailDomain: string,
    private readonly lookup: (key: string) => PlatformAgent | undefined,
  ) {}

  private values(agent: PlatformAgent): string[] {
    const wanted = wantedIdentity(agent, this.emailDomain);
    const out = [`email:${wanted.email}`, `handle:${wanted.handle}`];
    if (agent.status?.email) out.push(`email:${agent.status.email}`);
    if (agent.status?.handle) out.push(`handle:${agent.status.handle}`);
    return [...new Set(out)];
  }

  upsert(agent: PlatformAgent): void {
    this.remove(agent);
    const key = objectKey(agent);
    const values = this.values(agent);
    this.valuesOf.set(key, values);
    for (const v of values) {
      let set = this.byValue.get(v);
      if (!set) this.byValue.set(v, (set = new Set()));
      set.add(key);
    }
  }

  remove(agent: PlatformAgent): void {
    const key = objectKey(agent);
    for (const v of this.valuesOf.get(key) ?? []) {
      const set = this.byValue.get(v);
      set?.delete(key);
      if (set?.size === 0) this.byValue.delete(v);
    }
    this.valuesOf.delete(key);
  }

  /** Every agent that holds or asks for one of the email/handle values `agent` holds or asks for. */
  rivals(agent: PlatformAgent): PlatformAgent[] {
    const keys = new Set<string>();
    for (const v of this.values(agent)) for (const k of this.byValue.get(v) ?? []) keys.add(k);
    keys.delete(objectKey(agent));
    return [...keys].map((k) => this.lookup(k)).filter((a): a is PlatformAgent => a !== undefined);
  }
}
