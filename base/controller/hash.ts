import { createHash } from 'node:crypto';
import { canonicalize } from '../canonical.ts';

/** A short, stable hash of a JSON value (16 hex digits), over its canonical JSON. */
export function specHash(value: unknown): string {
  return createHash('sha256')
    .update(canonicalize(value, { loneSurrogates: 'escape' }))
    .digest('hex')
    .slice(0, 16);
}
