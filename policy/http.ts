// The Verifier's policy routes as a Koa router registration (CLARIFICATIONS
// "policies", spec "Presets"), for a Verifier without the API's route table:
//   GET/POST /v1/policies, GET/PUT/DELETE /v1/policies/{id}
//   GET  /v1/policies/{id}/effective   the chain the Gateway evaluates (org parents + policy)
//   POST /api/v1/workspaces/{id}/apply-preset   {auditor, tier} | {bundle}
// The operations themselves are in `service.ts`, shared with the API's routes.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { guarded, jsonBodyOf, reply, requireAuth } from '../evidence/http-util.ts';
import {
  applyPresetTo,
  createPolicy,
  deletePolicy,
  effectivePolicy,
  existingPolicy,
  updatePolicy,
  type PolicyServiceDeps,
  type PresetRequest,
} from './service.ts';

export interface PolicyRouteDeps extends PolicyServiceDeps {
  /** Who may read and write policies. */
  authenticateAdmin: (ctx: Context) => boolean | Promise<boolean>;
}

export const POLICY_BODY_LIMIT = 256 * 1024;

function registerCrud(router: Router, deps: PolicyRouteDeps): void {
  const admin = (fn: (ctx: Context) => Promise<void>) => (ctx: Context) =>
    guarded(ctx, async () => {
      await requireAuth(ctx, deps.authenticateAdmin);
      await fn(ctx);
    });
  router.get(
    '/v1/policies',
    admin(async (ctx) => reply(ctx, 200, { items: await deps.policies.list() })),
  );
  router.post(
    '/v1/policies',
    admin(async (ctx) => reply(ctx, 201, await createPolicy(deps, await jsonBodyOf(ctx, POLICY_BODY_LIMIT)))),
  );
  router.get(
    '/v1/policies/:id',
    admin(async (ctx) => reply(ctx, 200, await existingPolicy(deps, ctx.params.id!))),
  );
  router.put(
    '/v1/policies/:id',
    admin(async (ctx) =>
      reply(ctx, 200, await updatePolicy(deps, ctx.params.id!, await jsonBodyOf(ctx, POLICY_BODY_LIMIT))),
    ),
  );
  router.delete(
    '/v1/policies/:id',
    admin(async (ctx) => {
      await deletePolicy(deps, ctx.params.id!);
      ctx.status = 204;
    }),
  );
  router.get(
    '/v1/policies/:id/effective',
    admin(async (ctx) => reply(ctx, 200, await effectivePolicy(deps, ctx.params.id!))),
  );
}

function registerPresets(router: Router, deps: PolicyRouteDeps): void {
  router.post('/api/v1/workspaces/:id/apply-preset', (ctx) =>
    guarded(ctx, async () => {
      await requireAuth(ctx, deps.authenticateAdmin);
      const body = (await jsonBodyOf(ctx, 4096)) as PresetRequest;
      reply(ctx, 200, await applyPresetTo(deps, ctx.params.id!, body ?? {}));
    }),
  );
}

export function registerPolicyRoutes(router: Router, deps: PolicyRouteDeps): void {
  registerCrud(router, deps);
  registerPresets(router, deps);
}
