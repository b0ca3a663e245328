// The Verifier's evidence routes, as a Koa router registration:
//   POST /v1/evidence                    Gateway → Verifier (API key); 201, 409, 413, 422
//   GET  /v1/agents/{agent_id}/evidence  the agent's timeline, newest first
// and `registerPolicyAndEvidenceRoutes`, which adds the policy routes too.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { registerPolicyRoutes, type PolicyRouteDeps } from '../policy/http.ts';
import { guarded, jsonBodyOf, reply, requireAuth, RouteError } from './http-util.ts';
import { intakeEvidence, type IntakeDeps } from './intake.ts';

/** Evidence bodies above this are refused with 413 (PLATFORM_EVIDENCE_MAX_BYTES). */
export const DEFAULT_EVIDENCE_MAX_BYTES = 256 * 1024;

export interface EvidenceRouteDeps extends IntakeDeps {
  /** Who may submit Evidence (the gateway's PLATFORM_API_KEY). */
  authenticateSubmitter: (ctx: Context) => boolean | Promise<boolean>;
  /** Who may read an agent's timeline. */
  authenticateReader: (ctx: Context) => boolean | Promise<boolean>;
  maxEvidenceBytes?: number;
}

export function registerEvidenceRoutes(router: Router, deps: EvidenceRouteDeps): void {
  const limit = deps.maxEvidenceBytes ?? DEFAULT_EVIDENCE_MAX_BYTES;
  router.post('/v1/evidence', (ctx) =>
    guarded(ctx, async () => {
      await requireAuth(ctx, deps.authenticateSubmitter);
      // One shared submitter key here: every submission is the same credential.
      const outcome = await intakeEvidence(await jsonBodyOf(ctx, limit), deps, 'submitter');
      if (outcome.status !== 201) throw new RouteError(outcome.status, outcome.detail, outcome.code);
      const { entry } = outcome;
      reply(ctx, 201, {
        evidence_id: entry.evidence_id,
        seq: entry.seq,
        hash: entry.hash,
        attestation_result: entry.result,
      });
    }),
  );
  router.get('/v1/agents/:agentId/evidence', (ctx) =>
    guarded(ctx, async () => {
      await requireAuth(ctx, deps.authenticateReader);
      const limit = Math.min(500, Math.max(1, Number(ctx.query.limit ?? 50) || 50));
      const before = ctx.query.before_seq ? Number(ctx.query.before_seq) : undefined;
      const agent = await deps.agents(ctx.params.agentId!);
      const entries = agent
        ? await deps.store.listByAgent(ctx.params.agentId!, agent.uid, {
            limit,
            ...(before ? { beforeSeq: before } : {}),
          })
        : [];
      reply(ctx, 200, {
        agent_id: ctx.params.agentId,
        items: entries.map((e) => ({
          ...e.evidence,
          trust_tier: e.result.trust_tier,
          seq: e.seq,
          hash: e.hash,
          attestation_result: e.result,
        })),
      });
    }),
  );
}

export type PolicyAndEvidenceDeps = EvidenceRouteDeps & PolicyRouteDeps;

/** Every route this module owns: evidence intake and timeline, policies, presets. */
export function registerPolicyAndEvidenceRoutes(router: Router, deps: PolicyAndEvidenceDeps): void {
  registerEvidenceRoutes(router, deps);
  registerPolicyRoutes(router, deps);
}
