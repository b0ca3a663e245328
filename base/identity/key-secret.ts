// The trust-domain keys live in one Secret (`keys.json`: the StoredTrustKey
// list), created with a first key when missing and rotated by
// `maintainTrustKeys` (planRotation) with the Secret's resourceVersion, so two
// replicas maintaining at once never lose a key: the loser re-reads and
// re-plans. The keys are never logged.
import type { k8s } from '../kube.ts';
import { apiStatus, createUnlessExists, orUndefinedOn404 } from '../kube.ts';
import { applyPlan, isNoop, planRotation, type RotationPolicy } from './rotation.ts';
import { generateTrustKey, type StoredTrustKey } from './trust-keys.ts';

export interface SecretRef {
  namespace: string;
  name: string;
}

export interface TrustKeyPolicy extends RotationPolicy {
  /** How long each CA certificate is valid (at least rotateAfterMs + retainMs). */
  caValidMs: number;
}

const DATA_KEY = 'keys.json';

export function keysFromSecret(secret: k8s.V1Secret | undefined): StoredTrustKey[] {
  const raw = secret?.data?.[DATA_KEY];
  if (!raw) return [];
  const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${DATA_KEY} of the trust-domain key Secret is not a list`);
  return parsed as StoredTrustKey[];
}

export async function readTrustKeys(core: k8s.CoreV1Api, ref: SecretRef): Promise<StoredTrustKey[]> {
  return keysFromSecret(await orUndefinedOn404(core.readNamespacedSecret(ref)));
}

const secretBody = (ref: SecretRef, keys: StoredTrustKey[], resourceVersion?: string): k8s.V1Secret => ({
  metadata: {
    name: ref.name,
    namespace: ref.namespace,
    labels: { 'app.kubernetes.io/part-of': 'platform' },
    ...(resourceVersion ? { resourceVersion } : {}),
  },
  type: 'Opaque',
  data: { [DATA_KEY]: Buffer.from(JSON.stringify(keys)).toString('base64') },
});

async function maintainOnce(
  core: k8s.CoreV1Api,
  ref: SecretRef,
  policy: TrustKeyPolicy,
  nowMs: number,
): Promise<StoredTrustKey[]> {
  const secret = await orUndefinedOn404(core.readNamespacedSecret(ref));
  const keys = keysFromSecret(secret);
  const plan = planRotation(keys, nowMs, policy);
  if (isNoop(plan)) return keys;
  const fresh = plan.rotate ? await generateTrustKey(policy.trustDomain, nowMs, policy.caValidMs) : undefined;
  const next = applyPlan(keys, plan, nowMs, fresh);
  if (!secret) {
    // Another replica may create it first: theirs wins, and the next round plans on it.
    await createUnlessExists(
      core.createNamespacedSecret({ namespace: ref.namespace, body: secretBody(ref, next) }),
    );
  } else {
    const body = secretBody(ref, next, secret.metadata?.resourceVersion);
    await core.replaceNamespacedSecret({ ...ref, body });
  }
  return readTrustKeys(core, ref);
}

/** Creates, rotates and prunes the keys as `policy` says; the keys afterwards. */
export async function maintainTrustKeys(
  core: k8s.CoreV1Api,
  ref: SecretRef,
  policy: TrustKeyPolicy,
  nowMs = Date.now(),
): Promise<StoredTrustKey[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await maintainOnce(core, ref, policy, nowMs);
    } catch (err) {
      if (apiStatus(err) !== 409 || attempt >= 3) throw err;
    }
  }
}
