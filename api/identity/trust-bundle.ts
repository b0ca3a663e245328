// The Verifier's view of the trust-domain keys: it keeps them (creates the
// Secret on first start, rotates and prunes on a timer, decision 133) and
// serves their public halves as the trust bundle, read from the Secret at
// most every few seconds so every replica serves what the Secret holds.
import { k8s } from '../../base/kube.ts';
import type { Logger } from '../../base/log.ts';
import { MAX_SVID_TTL_SECONDS } from '../../base/identity/jwt-svid.ts';
import {
  maintainTrustKeys,
  readTrustKeys,
  type SecretRef,
  type TrustKeyPolicy,
} from '../../base/identity/key-secret.ts';
import {
  signingKeyOf,
  trustBundle,
  type SigningKey,
  type StoredTrustKey,
  type TrustBundle,
} from '../../base/identity/trust-keys.ts';

/** How long a read of the Secret serves bundle requests. */
const CACHE_MS = 5_000;
/** How often the keys are checked for rotation and pruning. */
const MAINTAIN_EVERY_MS = 3_600_000;
/** What the bundle tells holders: fetch again after this many seconds. */
export const REFRESH_HINT_SECONDS = 300;
const SKEW_MS = 5 * 60_000;

export interface TrustBundleSource {
  bundle(): Promise<TrustBundle>;
  /** The key that signs now (SVIDs, access tokens); undefined when there is none yet. */
  signingKey(): Promise<SigningKey | undefined>;
  /** Creates, rotates and prunes the keys now (also on a timer). */
  maintain(): Promise<void>;
  stop(): void;
}

export function trustKeyPolicy(trustDomain: string, rotateAfterMs: number): TrustKeyPolicy {
  // A retired key stays until the last SVID it signed has expired (and a holder's bundle refreshed).
  const retainMs = MAX_SVID_TTL_SECONDS * 1000 + REFRESH_HINT_SECONDS * 1000 + SKEW_MS;
  // The CA signs while its key is current and must outlive every SVID it signed.
  return { trustDomain, rotateAfterMs, retainMs, caValidMs: rotateAfterMs + MAINTAIN_EVERY_MS + retainMs };
}

export function trustBundleSource(
  kc: k8s.KubeConfig,
  o: { secret: SecretRef; policy: TrustKeyPolicy; log: Logger },
): TrustBundleSource {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  let cached: { at: number; bundle: Promise<TrustBundle> } | undefined;
  const maintain = async (): Promise<void> => {
    await maintainTrustKeys(core, o.secret, o.policy);
    cached = undefined;
    signing = undefined;
  };
  const loadKeys = async (): Promise<StoredTrustKey[]> => {
    const keys = await readTrustKeys(core, o.secret);
    return keys.length > 0 ? keys : maintainTrustKeys(core, o.secret, o.policy);
  };
  const load = async (): Promise<TrustBundle> =>
    trustBundle(o.policy.trustDomain, await loadKeys(), REFRESH_HINT_SECONDS);
  let signing: { at: number; key: Promise<SigningKey | undefined> } | undefined;
  const signingKey = (): Promise<SigningKey | undefined> => {
    const now = Date.now();
    if (!signing || now - signing.at >= CACHE_MS) {
      const pending = loadKeys().then((keys) =>
        signingKeyOf(keys.filter((k) => k.trustDomain === o.policy.trustDomain)),
      );
      pending.catch(() => (signing = undefined));
      signing = { at: now, key: pending };
    }
    return signing.key;
  };
  const bundle = (): Promise<TrustBundle> => {
    const now = Date.now();
    if (!cached || now - cached.at >= CACHE_MS) {
      const pending = load();
      // A failed read is not cached: the next request tries again.
      pending.catch(() => (cached = undefined));
      cached = { at: now, bundle: pending };
    }
    return cached.bundle;
  };
  const tick = (): void => {
    maintain().catch((err: unknown) =>
      o.log.warn(
        { err: String((err as Error)?.message ?? err) },
        'trust-domain keys not maintained; retrying',
      ),
    );
  };
  tick();
  const timer = setInterval(tick, MAINTAIN_EVERY_MS);
  timer.unref();
  return { bundle, signingKey, maintain, stop: () => clearInterval(timer) };
}
