// API keys stored hashed, one Secret per key in the API's namespace, so every
// replica sees the same keys through its Secret informer. A key minted by
// this replica is usable at once (local overlay until the watch delivers
// it); a revoked key stops working here at once and elsewhere on the watch.
import type * as k8s from '@kubernetes/client-node';
import { apiStatus } from '../../base/kube.ts';
import { hashMatches, keyIdOf, mintKey } from './api-key-format.ts';
import { KEY_ROLES, type KeyRole } from './principal.ts';
import { LABEL } from '../../contract/kube.ts';

export const secretNameFor = (id: string): string => `platform-api-key-${id}`;

export interface ObjectCache<T> {
  get(key: string): T | undefined;
  list(): T[];
}

export interface ApiKeyRecord {
  id: string;
  subject: string;
  role: KeyRole;
  workspaces: string[];
  /** A gateway key bound to agents (`<namespace>.<name>`): Evidence only for them (empty: any). */
  agents?: string[];
  description: string;
  createdBy: string;
  createdAt: string;
  expiresAt?: string;
}

export interface MintRequest {
  subject: string;
  role: KeyRole;
  workspaces: string[];
  description: string;
  expiresAt?: string;
}

export type StoredKey = ApiKeyRecord & { sha256: string };

const decode = (data: Record<string, string> | undefined, key: string): string =>
  data?.[key] ? Buffer.from(data[key], 'base64').toString('utf8') : '';

const decoded = new WeakMap<k8s.V1Secret, StoredKey | undefined>();

/** The key record a Secret holds; decoded once per cached object. */
export function recordFromSecret(secret: k8s.V1Secret): StoredKey | undefined {
  if (decoded.has(secret)) return decoded.get(secret);
  const record = decodeRecord(secret);
  decoded.set(secret, record);
  return record;
}

function decodeRecord(secret: k8s.V1Secret): StoredKey | undefined {
  const id = secret.metadata?.name?.replace(/^platform-api-key-/, '') ?? '';
  const d = secret.data;
  const role = decode(d, 'role') as KeyRole;
  const sha256 = decode(d, 'sha256');
  if (!sha256 || !KEY_ROLES.includes(role)) return undefined;
  const expiresAt = decode(d, 'expiresAt');
  const agents = decode(d, 'agents').split(',').filter(Boolean);
  return {
    id,
    sha256,
    subject: decode(d, 'subject'),
    role,
    workspaces: decode(d, 'workspaces').split(',').filter(Boolean),
    ...(agents.length ? { agents } : {}),
    description: decode(d, 'description'),
    createdBy: decode(d, 'createdBy'),
    createdAt: decode(d, 'createdAt'),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

function toStringData(r: StoredKey): Record<string, string> {
  const data: Record<string, string> = {
    sha256: r.sha256,
    subject: r.subject,
    role: r.role,
    workspaces: r.workspaces.join(','),
    description: r.description,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
  };
  if (r.expiresAt) data.expiresAt = r.expiresAt;
  if (r.agents?.length) data.agents = r.agents.join(',');
  return data;
}

/**
 * The Secret that holds one key record (never the key) in the key namespace.
 * The operator writes records this way too, for the gateway keys it mints.
 */
export function keyRecordSecret(
  stored: StoredKey,
  namespace: string,
  labels: Record<string, string> = {},
): k8s.V1Secret {
  return {
    metadata: {
      name: secretNameFor(stored.id),
      namespace,
      labels: { ...labels, [LABEL.apiKey]: 'true' },
    },
    type: 'Opaque',
    stringData: toStringData(stored),
  };
}

export const publicRecord = ({ sha256: _hash, ...rest }: StoredKey): ApiKeyRecord => rest;

export type KeyCheck = { record: ApiKeyRecord } | { reject: string } | undefined;

export class ApiKeyStore {
  private readonly minted = new Map<string, StoredKey>();
  private readonly revoked = new Set<string>();

  constructor(
    private readonly core: k8s.CoreV1Api,
    readonly namespace: string,
    private readonly cache: ObjectCache<k8s.V1Secret>,
    private readonly now: () => number = Date.now,
  ) {}

  async mint(request: MintRequest, createdBy: string): Promise<{ key: string; record: ApiKeyRecord }> {
    const fresh = mintKey();
    const stored: StoredKey = {
      ...request,
      id: fresh.id,
      sha256: fresh.sha256,
      createdBy,
      createdAt: new Date(this.now()).toISOString(),
    };
    await this.write(stored);
    return { key: fresh.key, record: publicRecord(stored) };
  }

  /** Stores a record for a key whose plaintext is already known (the bootstrap key). */
  async write(stored: StoredKey): Promise<void> {
    await this.core.createNamespacedSecret({
      namespace: this.namespace,
      body: keyRecordSecret(stored, this.namespace),
    });
    this.minted.set(stored.id, stored);
  }

  list(): ApiKeyRecord[] {
    const byId = new Map<string, StoredKey>(this.minted);
    for (const secret of this.cache.list()) {
      const r = recordFromSecret(secret);
      if (r) byId.set(r.id, r);
    }
    return [...byId.values()]
      .filter((r) => !this.revoked.has(r.id))
      .map(publicRecord)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  find(id: string): ApiKeyRecord | undefined {
    return this.list().find((r) => r.id === id);
  }

  async revoke(id: string): Promise<void> {
    this.revoked.add(id);
    this.minted.delete(id);
    try {
      await this.core.deleteNamespacedSecret({ namespace: this.namespace, name: secretNameFor(id) });
    } catch (err) {
      if (apiStatus(err) !== 404) throw err;
    }
  }

  async lookup(id: string): Promise<StoredKey | undefined> {
    if (this.revoked.has(id)) return undefined;
    const cached = this.cache.get(`${this.namespace}/${secretNameFor(id)}`);
    if (cached) return recordFromSecret(cached);
    const local = this.minted.get(id);
    if (local) return local;
    try {
      return recordFromSecret(
        await this.core.readNamespacedSecret({ namespace: this.namespace, name: secretNameFor(id) }),
      );
    } catch (err) {
      if (apiStatus(err) === 404) return undefined;
      throw err;
    }
  }

  /** undefined when the token is not an API key; a reason when it is a bad one. */
  async check(token: string): Promise<KeyCheck> {
    const id = keyIdOf(token);
    if (!id) return token.startsWith('pk_') ? { reject: 'malformed API key' } : undefined;
    const stored = await this.lookup(id);
    if (!stored || !hashMatches(token, stored.sha256)) return { reject: 'unknown or revoked API key' };
    if (stored.expiresAt && Date.parse(stored.expiresAt) <= this.now()) return { reject: 'API key expired' };
    return { record: publicRecord(stored) };
  }
}
