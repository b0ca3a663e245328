// Which agent exchanged each user token (decision 142): a subject token is
// bound to the first agent that exchanges it until it expires; the same token
// presented for another agent is a replay. Entries leave when their token
// expires; at capacity the soonest-expiring go first. One ledger per replica.
import { createHash } from 'node:crypto';

export const DEFAULT_LEDGER_CAPACITY = 100_000;

export class SubjectTokenLedger {
  private readonly byToken = new Map<string, { agent: string; expSeconds: number }>();
  private readonly capacity: number;

  constructor(capacity = DEFAULT_LEDGER_CAPACITY) {
    this.capacity = capacity;
  }

  /** The key of a subject token: its issuer and `jti`, else a digest of the token itself. */
  static keyOf(issuer: string, jti: unknown, token: string): string {
    if (typeof jti === 'string' && jti !== '') return `${issuer} ${jti}`;
    return `sha256:${createHash('sha256').update(token).digest('base64url')}`;
  }

  /**
   * Binds the token to `agent` and returns true, or returns false when another
   * agent already exchanged it (the replay). `nowSeconds` prunes expired entries.
   */
  claim(key: string, agent: string, expSeconds: number, nowSeconds: number): boolean {
    const held = this.byToken.get(key);
    if (held && held.expSeconds > nowSeconds) return held.agent === agent;
    if (this.byToken.size >= this.capacity) this.prune(nowSeconds);
    this.byToken.set(key, { agent, expSeconds });
    return true;
  }

  get size(): number {
    return this.byToken.size;
  }

  private prune(nowSeconds: number): void {
    for (const [k, v] of this.byToken) if (v.expSeconds <= nowSeconds) this.byToken.delete(k);
    if (this.byToken.size < this.capacity) return;
    const soonest = [...this.byToken].sort((a, b) => a[1].expSeconds - b[1].expSeconds);
    for (const [k] of soonest.slice(0, Math.ceil(this.capacity / 10))) this.byToken.delete(k);
  }
}
