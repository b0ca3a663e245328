// API key format and hashing, pure. A key is `pk_<id>_<secret>`: the id names
// the Secret that holds the key's SHA-256 (never the key), the secret is 256
// random bits. A fast hash is right for high-entropy keys (no dictionary to
// guess from); comparison is constant-time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_RE = /^pk_([a-f0-9]{16})_([A-Za-z0-9_-]{43})$/;

export interface MintedKey {
  id: string;
  key: string;
  sha256: string;
}

export function mintKey(): MintedKey {
  const id = randomBytes(8).toString('hex');
  const key = `pk_${id}_${randomBytes(32).toString('base64url')}`;
  return { id, key, sha256: hashKey(key) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The key id, or undefined when the token is not shaped like an API key. */
export function keyIdOf(token: string): string | undefined {
  return KEY_RE.exec(token)?.[1];
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('pk_');
}

export function hashMatches(key: string, storedSha256: string): boolean {
  const a = Buffer.from(hashKey(key), 'hex');
  const b = Buffer.from(storedSha256, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const API_KEY_ID_RE = /^[a-f0-9]{16}$/;
