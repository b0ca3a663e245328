// The Verifier's policy routes (CLARIFICATIONS "policies", spec "Presets"):
//   GET/POST /v1/policies, GET/PUT/DELETE /v1/policies/{id}
//   GET  /v1/policies/{id}/effective   the chain the Gateway evaluates (org parents + policy)
//   POST /api/v1/workspaces/{id}/apply-preset   {auditor, tier} | {bundle}
// Saving checks enforcement modes (422 {detail} naming field, mode,
// constraint and value) and that the rules compile against the vocabularies.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Vocabulary } from '../auditors/sdk/types.ts';
import { guarded, jsonBodyOf, reply, requireAuth, RouteError } from '../evidence/http-util.ts';
import { applyPreset } from './apply-preset.ts';
import { indexVocabularies } from './cedar-schema.ts';
import { bundlePreset, presetFor } from './presets.ts';
import type { PolicyRepository } from './repository.ts';
import { chainVersion, checkPolicySave, policyChain } from './save.ts';
import type { AuditorPolicySpec, PolicyRecord } from './types.ts';

export interface PolicyRouteDeps {
  policies: PolicyRepository;
  /** The registered auditors' vocabularies (the Cedar schema is generated from them). */
  vocabularies: () => Vocabulary[] | Promise<Vocabulary[]>;
  /** Who may read and write policies. */
  authenticateAdmin: (ctx: Context) => boolean | Promise<boolean>;
}

const POLICY_BODY_LIMIT = 256 * 1024;
const ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

async function save(
  deps: PolicyRouteDeps,
  id: string,
  spec: AuditorPolicySpec,
  previous?: PolicyRecord,
): Promise<PolicyRecord> {
  const check = checkPolicySave(id, spec, await deps.policies.list(), await deps.vocabularies());
  if (!check.ok) throw new RouteError(422, check.detail, check.code);
  const version = String(Number(previous?.version ?? 0) + 1);
  return deps.policies.put({ id, version, spec: { ...spec, version } });
}

function specOf(body: unknown): AuditorPolicySpec {
  const spec = (body as { spec?: unknown } | null)?.spec;
  if (!spec || typeof spec !== 'object') throw new RouteError(400, 'body is {id, spec}', 'invalid_request');
  return spec as AuditorPolicySpec;
}

async function existing(deps: PolicyRouteDeps, id: string): Promise<PolicyRecord> {
  const found = await deps.policies.get(id);
  if (!found) throw new RouteError(404, `PolicyNotFound: no policy '${id}'`, 'not_found');
  return found;
}

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
    admin(async (ctx) => {
      const body = await jsonBodyOf(ctx, POLICY_BODY_LIMIT);
      const id = String((body as { id?: unknown }).id ?? '');
      if (!ID.test(id)) throw new RouteError(400, 'id is <namespace>.<name>', 'invalid_request');
      if (await deps.policies.get(id)) throw new RouteError(409, `policy ${id} exists`, 'conflict');
      reply(ctx, 201, await save(deps, id, specOf(body)));
    }),
  );
  router.get(
    '/v1/policies/:id',
    admin(async (ctx) => reply(ctx, 200, await existing(deps, ctx.params.id!))),
  );
  router.put(
    '/v1/policies/:id',
    admin(async (ctx) => {
      const previous = await existing(deps, ctx.params.id!);
      reply(
        ctx,
        200,
        await save(deps, previous.id, specOf(await jsonBodyOf(ctx, POLICY_BODY_LIMIT)), previous),
      );
    }),
  );
  router.delete(
    '/v1/policies/:id',
    admin(async (ctx) => {
      await existing(deps, ctx.params.id!);
      await deps.policies.delete(ctx.params.id!);
      ctx.status = 204;
    }),
  );
  router.get(
    '/v1/policies/:id/effective',
    admin(async (ctx) => {
      const target = await existing(deps, ctx.params.id!);
      const chain = policyChain(target, await deps.policies.list());
      reply(ctx, 200, { policy_id: target.id, policy_version: chainVersion(chain), chain });
    }),
  );
}

async function workspacePolicy(
  deps: PolicyRouteDeps,
  workspaceId: string,
): Promise<PolicyRecord | undefined> {
  const all = await deps.policies.list();
  return all.find((p) => p.spec.scope === 'workspace' && p.spec.scopeId === workspaceId);
}

function registerPresets(router: Router, deps: PolicyRouteDeps): void {
  router.post('/api/v1/workspaces/:id/apply-preset', (ctx) =>
    guarded(ctx, async () => {
      await requireAuth(ctx, deps.authenticateAdmin);
      const body = (await jsonBodyOf(ctx, 4096)) as { auditor?: string; tier?: string; bundle?: string };
      const preset = body.bundle ? bundlePreset(body.bundle) : presetFor(body.auditor ?? '', body.tier ?? '');
      if (!preset)
        throw new RouteError(
          400,
          'send {auditor, tier} (Starter, Balanced, Strict) or {bundle} (solo_builder, production_team, regulated_enterprise)',
          'unknown_preset',
        );
      const workspaceId = ctx.params.id!;
      const current = await workspacePolicy(deps, workspaceId);
      const base: AuditorPolicySpec = current?.spec ?? { scope: 'workspace', scopeId: workspaceId };
      const { claims } = indexVocabularies(await deps.vocabularies());
      let spec: AuditorPolicySpec;
      try {
        spec = applyPreset(base, preset, claims);
      } catch (err) {
        throw new RouteError(
          422,
          `preset does not fit the registered auditors: ${(err as Error).message}`,
          'invalid_policy',
        );
      }
      const id = current?.id ?? `${workspaceId}.workspace-policy`;
      const saved = await save(deps, id, spec, current);
      const applied = body.bundle ? { bundle: body.bundle } : { auditor: body.auditor, tier: body.tier };
      reply(ctx, 200, {
        workspace_id: workspaceId,
        policy_id: saved.id,
        policy_version: saved.version,
        applied,
        spec: saved.spec,
      });
    }),
  );
}

export function registerPolicyRoutes(router: Router, deps: PolicyRouteDeps): void {
  registerCrud(router, deps);
  registerPresets(router, deps);
}
