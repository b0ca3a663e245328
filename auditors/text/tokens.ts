// Token counting with the offline BPE tokenizer of `gpt-tokenizer`
// (o200k_base encoding, shipped inside the package; nothing is fetched).
import { isWithinTokenLimit } from 'gpt-tokenizer';

export interface TokenCount {
  /** Exact count when within the limit, otherwise a lower bound (`limit + 1`). */
  count: number;
  exceeded: boolean;
}

/** Characters encoded per call: ordinary text is cut only before a space. */
const CHUNK_CHARS = 2048;
/**
 * A run without spaces longer than this is cut into pieces: BPE merges within
 * one pre-token cost quadratic time in its length (a megabyte of "aaaa…"
 * took minutes), and no real word is this long.
 */
const MAX_RUN_CHARS = 256;

const SPACE = 0x20;

/**
 * End of the chunk starting at `start`: before the last space within
 * CHUNK_CHARS, and never after more than MAX_RUN_CHARS without a space (a
 * longer run ends the chunk before it and is then cut into pieces). Linear.
 */
function chunkEnd(text: string, start: number): number {
  const hardEnd = Math.min(text.length, start + CHUNK_CHARS);
  let lastSpace = -1;
  let runStart = start;
  for (let i = start + 1; i < hardEnd; i++) {
    if (text.charCodeAt(i) === SPACE) [lastSpace, runStart] = [i, i];
    else if (i - runStart >= MAX_RUN_CHARS) return lastSpace > start ? lastSpace : i;
  }
  if (hardEnd === text.length) return hardEnd;
  return lastSpace > start ? lastSpace : hardEnd;
}

/**
 * Stops encoding once the limit is passed, so the work is bounded by the
 * limit. Exact for ordinary text (chunks are cut before a space, where a
 * pre-token starts anyway); runs of more than MAX_RUN_CHARS without a space
 * are counted in pieces, which may differ from the whole run's count by a
 * token per piece.
 */
export function countTokensUpTo(text: string, limit: number): TokenCount {
  const max = Math.max(0, Math.floor(limit));
  let count = 0;
  for (let start = 0; start < text.length;) {
    const end = chunkEnd(text, start);
    // Special-token text such as `<|endoftext|>` is counted as ordinary text, never rejected.
    const within = isWithinTokenLimit(text.slice(start, end), max - count, { disallowedSpecial: new Set() });
    if (within === false) return { count: max + 1, exceeded: true };
    count += within;
    start = end;
  }
  return { count, exceeded: false };
}
