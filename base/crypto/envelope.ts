// Envelope encryption for every secret the platform stores. Each record gets
// its own random data key (AES-256-GCM); the data key is wrapped by a
// key-encryption key (KEK) named by a key id. Rotation adds a new KEK and
// makes it active: old records still decrypt under their recorded key id, and
// `rewrap` moves a record to the active KEK without touching its ciphertext.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALG = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';
const KEY_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

export interface Keyring {
  activeKeyId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** Builds a keyring, checking every key id and key length. */
export function createKeyring(activeKeyId: string, keys: Record<string, Buffer>): Keyring {
  const map = new Map<string, Buffer>();
  for (const [id, key] of Object.entries(keys)) {
    if (!KEY_ID_RE.test(id))
      throw new EnvelopeError(`key id ${JSON.stringify(id)} must match ${KEY_ID_RE.source}`);
    if (key.length !== KEY_BYTES)
      throw new EnvelopeError(`key ${id} must be ${KEY_BYTES} bytes, got ${key.length}`);
    map.set(id, key);
  }
  if (!map.has(activeKeyId))
    throw new EnvelopeError(`active key id ${JSON.stringify(activeKeyId)} is not in the keyring`);
  return { activeKeyId, keys: map };
}

/**
 * Parses a keyring from the data of a Kubernetes Secret or a JSON file:
 * `{ active: "<kid>", "<kid>": "<base64 32 bytes>", ... }`.
 */
export function keyringFromData(data: Record<string, string>): Keyring {
  const { active, ...rest } = data;
  if (!active) throw new EnvelopeError('keyring data has no "active" entry naming the active key id');
  const keys: Record<string, Buffer> = {};
  for (const [id, b64] of Object.entries(rest)) keys[id] = Buffer.from(b64, 'base64');
  return createKeyring(active, keys);
}

export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** Adds a new key and makes it active; the old keys stay for decryption. */
export function rotate(keyring: Keyring, newKeyId: string, newKey: Buffer = generateKey()): Keyring {
  if (keyring.keys.has(newKeyId)) throw new EnvelopeError(`key id ${newKeyId} already exists`);
  return createKeyring(newKeyId, { ...Object.fromEntries(keyring.keys), [newKeyId]: newKey });
}

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALG, key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(key: Buffer, sealed: Buffer, aad: Buffer, what: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new EnvelopeError(`${what} is truncated`);
  const decipher = createDecipheriv(ALG, key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new EnvelopeError(`${what} failed authentication (tampered, wrong key or wrong context)`);
  }
}

const b64u = (b: Buffer): string => b.toString('base64url');

/**
 * Encrypts `plaintext`. `context` (for example `namespace/secret/key`) is bound
 * as additional authenticated data, so a record cannot be moved elsewhere.
 * Returns `v1.<kid>.<wrapped data key>.<ciphertext>`.
 */
export function encrypt(keyring: Keyring, plaintext: string | Buffer, context: string): string {
  const kek = keyring.keys.get(keyring.activeKeyId) as Buffer;
  const dataKey = randomBytes(KEY_BYTES);
  const aad = Buffer.from(context);
  const wrapped = seal(kek, dataKey, Buffer.from(`${keyring.activeKeyId}|${context}`));
  const body = seal(dataKey, Buffer.isBuffer(plaintext) ? plaintext : Buffer.from(plaintext), aad);
  dataKey.fill(0);
  return [FORMAT, keyring.activeKeyId, b64u(wrapped), b64u(body)].join('.');
}

interface ParsedRecord {
  keyId: string;
  wrapped: Buffer;
  body: Buffer;
}

function parse(record: string): ParsedRecord {
  const parts = record.split('.');
  if (parts.length !== 4 || parts[0] !== FORMAT)
    throw new EnvelopeError('not an envelope record (expected v1.<kid>.<key>.<data>)');
  const [, keyId, wrapped, body] = parts as [string, string, string, string];
  return { keyId, wrapped: Buffer.from(wrapped, 'base64url'), body: Buffer.from(body, 'base64url') };
}

function unwrap(keyring: Keyring, rec: ParsedRecord, context: string): Buffer {
  const kek = keyring.keys.get(rec.keyId);
  if (!kek) throw new EnvelopeError(`record is wrapped by key id ${rec.keyId}, which is not in the keyring`);
  return open(kek, rec.wrapped, Buffer.from(`${rec.keyId}|${context}`), 'data key');
}

export function decrypt(keyring: Keyring, record: string, context: string): Buffer {
  const rec = parse(record);
  const dataKey = unwrap(keyring, rec, context);
  try {
    return open(dataKey, rec.body, Buffer.from(context), 'ciphertext');
  } finally {
    dataKey.fill(0);
  }
}

/** The key id a record is wrapped with (to find records that need rewrapping). */
export function keyIdOf(record: string): string {
  return parse(record).keyId;
}

/** Re-wraps a record's data key with the active KEK; the ciphertext is unchanged. */
export function rewrap(keyring: Keyring, record: string, context: string): string {
  const rec = parse(record);
  if (rec.keyId === keyring.activeKeyId) return record;
  const dataKey = unwrap(keyring, rec, context);
  const kek = keyring.keys.get(keyring.activeKeyId) as Buffer;
  const wrapped = seal(kek, dataKey, Buffer.from(`${keyring.activeKeyId}|${context}`));
  dataKey.fill(0);
  return [FORMAT, keyring.activeKeyId, b64u(wrapped), b64u(rec.body)].join('.');
}
