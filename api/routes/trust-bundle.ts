// The trust domain's bundle, public (decision 132): the JWT authorities (public
// JWKs, `use: jwt-svid`) and X.509 authorities (CA certificates, PEM) that
// verify the platform's SVIDs.
import { HttpError } from '../../base/http-error.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { TRUST_BUNDLE } from './responses.ts';

async function bundle(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'trust-bundle' };
  try {
    return await rc.deps.trustBundle();
  } catch (err) {
    // The answer names no cause (the apiserver's message is for operators); the log has it.
    rc.deps.log.warn({ err: String((err as Error)?.message ?? err) }, 'trust bundle unavailable');
    throw new HttpError(
      503,
      'the trust bundle is unavailable; try again shortly',
      'trust_bundle_unavailable',
    );
  }
}

export const TRUST_BUNDLE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/trust-bundle',
    action: 'public',
    summary: 'The SPIFFE trust bundle: public keys that verify JWT-SVIDs and X.509-SVIDs',
    success: 200,
    response: TRUST_BUNDLE,
    handle: bundle,
  },
];
