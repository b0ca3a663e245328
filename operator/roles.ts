// The long-running roles of the one `platform` binary. Each role module
// exports `run(context)`; it starts its servers, registers its stop steps on
// the lifecycle and returns.
import type { RoleRunner } from '../base/role.ts';

export interface RoleEntry {
  description: string;
  load: () => Promise<RoleRunner>;
}

export const ROLES: Record<string, RoleEntry> = {
  operator: {
    description: 'controllers with leader election',
    load: async () => (await import('../controllers/run.ts')).runOperator,
  },
  auditor: {
    description: 'a built-in auditor: platform run auditor <name>',
    load: async () => (await import('../auditors/run.ts')).runAuditor,
  },
  api: {
    description: 'the Verifier API: agents, shares, approvals, API keys, audit log, registry check',
    load: async () => (await import('../api/run.ts')).runApi,
  },
  gateway: {
    description: 'policy enforcement point: auditor claims, one Cedar decision, signed Evidence',
    load: async () => (await import('../gateway/run.ts')).runGateway,
  },
  webhook: {
    description: 'admission webhook: sidecar injection (/mutate) and notarization (/validate)',
    load: async () => (await import('../webhooks/run.ts')).runWebhook,
  },
  proxy: {
    description: 'credential proxy sidecar: egress by SNI, CONNECT or Host on one port',
    load: async () => (await import('../proxy/run.ts')).runProxy,
  },
  model: {
    description: 'local OpenAI-compatible model server with deterministic answers (tests, demos)',
    load: async () => (await import('../model/run.ts')).runModel,
  },
  agent: {
    description: 'reference agent: calls its model (and a tool) at start and on POST /v1/ask, /v1/tool',
    load: async () => (await import('../agent/run.ts')).runAgent,
  },
};

/** Roles the architecture names that a later release provides (none left today). */
export const PLANNED_ROLES: readonly string[] = [];
