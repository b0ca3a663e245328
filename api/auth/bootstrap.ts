// The first-start admin key: the plaintext goes into one Secret that only
// cluster admins can read (`kubectl get secret platform-api-bootstrap -o
// jsonpath='{.data.api-key}' | base64 -d`), its hash into the key store.
// Creating the bootstrap Secret is the claim: of several replicas starting at
// once exactly one creation succeeds. Idempotent: a missing hash record is
// rewritten from the plaintext on the next start.
import type * as k8s from '@kubernetes/client-node';
import { createUnlessExists } from '../../base/kube.ts';
import type { Logger } from '../../base/log.ts';
import { hashKey, keyIdOf, mintKey } from './api-key-format.ts';
import type { ApiKeyStore } from './key-store.ts';
import { SECRET_KEY } from '../../contract/kube.ts';

export const BOOTSTRAP_SUBJECT = 'bootstrap-admin';

export interface BootstrapOptions {
  core: k8s.CoreV1Api;
  store: ApiKeyStore;
  secretName: string;
  log: Logger;
}

async function readBootstrapKey(o: BootstrapOptions): Promise<string | undefined> {
  const secret = await o.core.readNamespacedSecret({ namespace: o.store.namespace, name: o.secretName });
  const raw = secret.data?.[SECRET_KEY.apiKey];
  return raw ? Buffer.from(raw, 'base64').toString('utf8') : undefined;
}

/** True when this replica created the bootstrap Secret; false when another got there first. */
function claim(o: BootstrapOptions, key: string): Promise<boolean> {
  return createUnlessExists(
    o.core.createNamespacedSecret({
      namespace: o.store.namespace,
      body: {
        metadata: { name: o.secretName, labels: { 'app.kubernetes.io/part-of': 'platform' } },
        type: 'Opaque',
        stringData: { [SECRET_KEY.apiKey]: key, subject: BOOTSTRAP_SUBJECT },
      },
    }),
  );
}

/** Ensures the bootstrap admin key exists; returns its id. */
export async function ensureBootstrapKey(o: BootstrapOptions): Promise<string> {
  const fresh = mintKey();
  const created = await claim(o, fresh.key);
  const key = created ? fresh.key : await readBootstrapKey(o);
  const id = key ? keyIdOf(key) : undefined;
  if (!key || !id) throw new Error(`Secret ${o.secretName} holds no valid api-key`);
  if (!created && (await o.store.lookup(id))) return id;
  await createUnlessExists(
    o.store.write({
      id,
      sha256: hashKey(key),
      subject: BOOTSTRAP_SUBJECT,
      role: 'org_admin',
      workspaces: [],
      description: 'bootstrap admin key created on first start',
      createdBy: 'platform-api',
      createdAt: new Date().toISOString(),
    }),
  );
  o.log.info(
    { secret: `${o.store.namespace}/${o.secretName}`, keyId: id, created },
    'bootstrap admin key ready; read it with kubectl get secret -o jsonpath={.data.api-key}',
  );
  return id;
}
