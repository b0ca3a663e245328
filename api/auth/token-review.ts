// Kubernetes service-account tokens, checked with the TokenReview API. Results
// are cached briefly by token hash so a busy client does not cost one
// apiserver round trip per request; failures are cached for less time.
import type * as k8s from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { grantsFor, type AdminGrants, type Authenticator, type AuthResult } from './principal.ts';

export interface TokenReviewOptions {
  api: k8s.AuthenticationV1Api;
  grants: AdminGrants;
  /** Audiences to request; empty means the apiserver's default. */
  audiences: readonly string[];
  cacheTtlMs?: number;
  now?: () => number;
}

const SA_PREFIX = 'system:serviceaccount:';

export function tokenReviewAuthenticator(o: TokenReviewOptions): Authenticator {
  const cache = new Map<string, { result: AuthResult; expiresAtMs: number }>();
  const ttlMs = o.cacheTtlMs ?? 10_000;
  const now = o.now ?? Date.now;
  const review = async (token: string): Promise<AuthResult> => {
    const spec: k8s.V1TokenReviewSpec = { token };
    if (o.audiences.length > 0) spec.audiences = [...o.audiences];
    const res = await o.api.createTokenReview({ body: { spec } });
    const username = res.status?.user?.username;
    if (!res.status?.authenticated || !username) {
      return { reject: `service-account token rejected${res.status?.error ? `: ${res.status.error}` : ''}` };
    }
    if (!username.startsWith(SA_PREFIX)) return { reject: 'only service-account tokens are accepted' };
    return { principal: { subject: username, method: 'service_account', ...grantsFor(username, o.grants) } };
  };
  return {
    name: 'service_account',
    async authenticate(token) {
      const key = createHash('sha256').update(token).digest('hex');
      const hit = cache.get(key);
      if (hit && hit.expiresAtMs > now()) return hit.result;
      const result = await review(token);
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { result, expiresAtMs: now() + (result && 'principal' in result ? ttlMs : ttlMs / 5) });
      return result;
    },
  };
}
