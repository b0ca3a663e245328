import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EnvelopeError,
  createKeyring,
  decrypt,
  encrypt,
  generateKey,
  keyIdOf,
  keyringFromData,
  rewrap,
  rotate,
} from './envelope.ts';

const ring = createKeyring('k1', { k1: generateKey() });
const CTX = 'team-a/agent-x-oauth/client_secret';

describe('envelope encryption', () => {
  it('round-trips any plaintext under its context', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.string({ maxLength: 80 }), (bytes, ctx) => {
        const record = encrypt(ring, Buffer.from(bytes), ctx);
        expect(decrypt(ring, record, ctx).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('uses a fresh data key per record, so equal plaintexts differ', () => {
    expect(encrypt(ring, 'same', CTX)).not.toBe(encrypt(ring, 'same', CTX));
  });

  it('never contains the plaintext', () => {
    const record = encrypt(ring, 'sk-live-supersecret', CTX);
    expect(record).not.toContain('sk-live');
    expect(Buffer.from(record.split('.')[3] ?? '', 'base64url').toString()).not.toContain('supersecret');
  });

  it('detects a tampered byte anywhere in the record', () => {
    const record = encrypt(ring, 'hello', CTX);
    const parts = record.split('.');
    for (const i of [2, 3]) {
      const bytes = Buffer.from(parts[i] ?? '', 'base64url');
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
      const tampered = [...parts];
      tampered[i] = bytes.toString('base64url');
      expect(() => decrypt(ring, tampered.join('.'), CTX)).toThrow(EnvelopeError);
    }
  });

  it('refuses a record moved to another context', () => {
    const record = encrypt(ring, 'hello', CTX);
    expect(() => decrypt(ring, record, 'team-b/other/client_secret')).toThrow(/failed authentication/);
  });

  it('keeps old records readable after rotation and rewraps them to the new key', () => {
    const old = encrypt(ring, 'before rotation', CTX);
    const rotated = rotate(ring, 'k2');
    expect(rotated.activeKeyId).toBe('k2');
    expect(decrypt(rotated, old, CTX).toString()).toBe('before rotation');
    const moved = rewrap(rotated, old, CTX);
    expect(keyIdOf(moved)).toBe('k2');
    expect(moved.split('.')[3]).toBe(old.split('.')[3]);
    expect(decrypt(rotated, moved, CTX).toString()).toBe('before rotation');
    expect(keyIdOf(encrypt(rotated, 'new', CTX))).toBe('k2');
  });

  it('names the missing key id without revealing key material', () => {
    const other = createKeyring('k9', { k9: generateKey() });
    const record = encrypt(ring, 'x', CTX);
    expect(() => decrypt(other, record, CTX)).toThrow(
      'record is wrapped by key id k1, which is not in the keyring',
    );
  });

  it('rejects malformed records and keyrings with clear messages', () => {
    expect(() => decrypt(ring, 'garbage', CTX)).toThrow(/not an envelope record/);
    expect(() => keyringFromData({ k1: generateKey().toString('base64') })).toThrow(/no "active" entry/);
    expect(() => keyringFromData({ active: 'k1', k1: 'c2hvcnQ=' })).toThrow('key k1 must be 32 bytes, got 5');
    expect(() => createKeyring('bad id', { 'bad id': generateKey() })).toThrow(/key id "bad id" must match/);
    expect(() => rotate(ring, 'k1')).toThrow(/already exists/);
  });

  it('loads a keyring from Secret-style data', () => {
    const key = generateKey();
    const loaded = keyringFromData({ active: 'a', a: key.toString('base64') });
    expect(decrypt(loaded, encrypt(loaded, 'v', CTX), CTX).toString()).toBe('v');
  });
});
