import { createHash } from 'node:crypto';
import { stableJson } from './meta.ts';

/** A short, stable hash of a JSON value (16 hex digits). */
export function specHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex').slice(0, 16);
}
