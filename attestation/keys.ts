// The signing keys of an attester (the Gateway): Ed25519 key pairs with key
// ids. Rotation adds a key and makes it active; older keys stay listed so
// Evidence they signed still verifies. Kept in memory, or in a JSON file
// (mode 0600) so a restarted gateway keeps its identity.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface SigningKey {
  keyId: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
  createdAt: string;
  privateKey: KeyObject;
}

/** The key id: the first 16 base64url characters of SHA-256 over the raw public key. */
export function keyIdOf(rawPublicKey: Buffer): string {
  return createHash('sha256').update(rawPublicKey).digest('base64url').slice(0, 16);
}

export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url');
}

/** A KeyObject from a raw base64url Ed25519 public key. */
export function publicKeyFromRaw(raw: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
}

function newKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(privateKey);
  return {
    keyId: keyIdOf(raw),
    publicKey: raw.toString('base64url'),
    createdAt: new Date().toISOString(),
    privateKey,
  };
}

interface StoredKey {
  keyId: string;
  createdAt: string;
  pem: string;
}

export class KeyRing {
  private readonly keys: SigningKey[] = [];

  /** Loads `file` when it exists, else starts with one fresh key (written to `file` when given). */
  constructor(private readonly file?: string) {
    if (file && existsSync(file)) this.load(file);
    if (this.keys.length === 0) this.rotate();
  }

  private load(file: string): void {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { keys: StoredKey[] };
    for (const k of stored.keys) {
      const privateKey = createPrivateKey(k.pem);
      const raw = rawPublicKey(privateKey);
      if (keyIdOf(raw) !== k.keyId)
        throw new Error(`key file ${file}: key id ${k.keyId} does not match its key`);
      this.keys.push({
        keyId: k.keyId,
        createdAt: k.createdAt,
        publicKey: raw.toString('base64url'),
        privateKey,
      });
    }
  }

  private save(): void {
    if (!this.file) return;
    const keys: StoredKey[] = this.keys.map((k) => ({
      keyId: k.keyId,
      createdAt: k.createdAt,
      pem: k.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    }));
    writeFileSync(`${this.file}.tmp`, JSON.stringify({ keys }, null, 2), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }

  /** Adds a fresh key and makes it the active one; returns it. */
  rotate(): SigningKey {
    const key = newKey();
    this.keys.push(key);
    this.save();
    return key;
  }

  active(): SigningKey {
    return this.keys[this.keys.length - 1]!;
  }

  get(keyId: string): SigningKey | undefined {
    return this.keys.find((k) => k.keyId === keyId);
  }

  /** Public keys by id, active last. */
  publicKeys(): { keyId: string; publicKey: string; createdAt: string }[] {
    return this.keys.map(({ keyId, publicKey, createdAt }) => ({ keyId, publicKey, createdAt }));
  }

  sign(payload: Buffer, keyId = this.active().keyId): string {
    const key = this.get(keyId);
    if (!key) throw new Error(`no signing key ${keyId}`);
    return sign(null, payload, key.privateKey).toString('base64url');
  }
}
