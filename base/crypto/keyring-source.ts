// Where the key-encryption keys come from: a JSON file (mounted Secret or KMS
// sidecar output) or a Kubernetes Secret that is created with one fresh key on
// first start. Rotation = add a key to the Secret and point `active` at it.
import { readFileSync } from 'node:fs';
import { apiStatus, createUnlessExists, k8s } from '../kube.ts';
import { generateKey, keyringFromData, type Keyring } from './envelope.ts';

export interface KeyringSource {
  file?: string;
  secret?: { namespace: string; name: string };
}

export function keyringFromFile(path: string): Keyring {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`keyring file ${path}: ${(err as Error).message}`);
  }
  if (!data || typeof data !== 'object') throw new Error(`keyring file ${path}: expected a JSON object`);
  return keyringFromData(data as Record<string, string>);
}

function decodeSecretData(data: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) {
    // Secret data is base64 of the stored value; `active` holds a key id, the rest hold base64 keys.
    out[k] = Buffer.from(v, 'base64').toString('utf8');
  }
  return out;
}

/** Reads the keyring Secret, creating it with one fresh key when it does not exist. */
export async function keyringFromSecret(
  kc: k8s.KubeConfig,
  namespace: string,
  name: string,
): Promise<Keyring> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  try {
    const secret = await core.readNamespacedSecret({ namespace, name });
    return keyringFromData(decodeSecretData(secret.data ?? {}));
  } catch (err) {
    if (apiStatus(err) !== 404) throw err;
  }
  const keyId = `k${Date.now().toString(36)}`;
  const body: k8s.V1Secret = {
    metadata: { name, namespace, labels: { 'app.kubernetes.io/part-of': 'platform' } },
    type: 'Opaque',
    stringData: { active: keyId, [keyId]: generateKey().toString('base64') },
  };
  // When another replica created it first, theirs is the one read back below.
  await createUnlessExists(core.createNamespacedSecret({ namespace, body }));
  const secret = await core.readNamespacedSecret({ namespace, name });
  return keyringFromData(decodeSecretData(secret.data ?? {}));
}

export async function loadKeyring(source: KeyringSource, kc?: k8s.KubeConfig): Promise<Keyring> {
  if (source.file) return keyringFromFile(source.file);
  if (source.secret && kc) return keyringFromSecret(kc, source.secret.namespace, source.secret.name);
  throw new Error('no keyring source: set PLATFORM_KEYRING_FILE or PLATFORM_KEYRING_SECRET');
}
