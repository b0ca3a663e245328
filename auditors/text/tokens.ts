// Token counting with the offline BPE tokenizer of `gpt-tokenizer`
// (o200k_base encoding, shipped inside the package; nothing is fetched).
import { isWithinTokenLimit } from 'gpt-tokenizer';

export interface TokenCount {
  /** Exact count when within the limit, otherwise a lower bound (`limit + 1`). */
  count: number;
  exceeded: boolean;
}

/** Stops encoding once the limit is passed, so the work is bounded by the limit. */
export function countTokensUpTo(text: string, limit: number): TokenCount {
  // Special-token text such as `<|endoftext|>` is counted as ordinary text, never rejected.
  const within = isWithinTokenLimit(text, Math.max(0, Math.floor(limit)), { disallowedSpecial: new Set() });
  if (within === false) return { count: Math.floor(limit) + 1, exceeded: true };
  return { count: within, exceeded: false };
}
