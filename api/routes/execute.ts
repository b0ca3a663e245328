// One route as a chain of Koa middleware, one step each: authenticate (unless
// public), audit (around every later step, so reads and writes alike,
// allowed or denied, leave one entry), refuse control characters in path and
// query parameters, load the agent or approval the path names and authorize
// against the policy table, only then read and validate the body (an unknown
// caller cannot make the API read one; control characters first), call the
// handler and answer. The route's state travels on `ctx.state.rc`.
import type { Context, Middleware } from 'koa';
import type { ApprovalRequest } from '../../crds/generated/types.ts';
import { parseAgentId, type PlatformAgent } from '../agents/model.ts';
import { authenticateToken } from '../auth/authenticate.ts';
import type { Authenticator, Principal } from '../auth/principal.ts';
import { bodyLeftUnread, toHttpError } from '../http/errors.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../base/http-error.ts';
import type { ApiMetrics } from '../http/metrics.ts';
import { assertClean, bodyProblem, paramsProblem, refusedCharacter } from '../../base/hygiene.ts';
import {
  hasBody,
  readFormBody,
  readJsonBody,
  readTextOrJsonBody,
  type JsonBody,
} from '../http/middleware.ts';
import { oauthErrorBody } from '../oauth/errors.ts';
import { validateBody } from '../http/validate.ts';
import { can, POLICY, rolesInWords, type Action } from '../policy/roles.ts';
import type { ApiDeps, RouteCtx, RouteSpec } from './route.ts';

export const ANONYMOUS: Principal = {
  subject: 'anonymous',
  method: 'api_key',
  orgAdmin: false,
  workspaceAdminOf: [],
};

export interface Executor {
  deps: ApiDeps;
  authenticators: readonly Authenticator[];
  metrics?: ApiMetrics;
  /** The API's body limit (PLATFORM_API_BODY_LIMIT); a route's `maxBodyBytes` may be tighter. */
  bodyLimitBytes: number;
}

function flatQuery(query: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v))
      throw badRequest(`query parameter ${k.slice(0, 40)} given more than once`, 'invalid_query');
    if (v !== undefined) out[k] = v;
  }
  return out;
}

async function loadAgent(rc: RouteCtx, id: string, fresh: boolean): Promise<PlatformAgent> {
  const { namespace, name } = parseAgentId(id);
  rc.audit = { resource: id, namespace };
  const agent = fresh
    ? await rc.deps.writer.readAgent(namespace, name)
    : rc.deps.agents.agent(`${namespace}/${name}`);
  if (!agent) throw notFound(`agent ${id} not found`);
  return agent;
}

async function loadApproval(rc: RouteCtx, id: string, fresh: boolean): Promise<void> {
  const { namespace, name } = parseAgentId(id);
  rc.audit = { resource: `approval:${id}`, namespace };
  const approval: ApprovalRequest | undefined =
    (fresh ? undefined : rc.deps.approvals.get(`${namespace}/${name}`)) ??
    (await rc.deps.writer.readApproval(namespace, name));
  if (!approval) throw notFound(`approval ${id} not found`);
  rc.approval = approval;
  const key = `${namespace}/${approval.spec.agent}`;
  rc.agent = (fresh
    ? await rc.deps.writer.readAgent(namespace, approval.spec.agent)
    : rc.deps.agents.agent(key)) ?? {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: { namespace, name: approval.spec.agent },
    spec: { owners: [] },
  };
}

async function authorize(spec: RouteSpec, rc: RouteCtx, fresh: boolean): Promise<void> {
  if (spec.action === 'public') return;
  const action: Action = spec.action;
  if (POLICY[action].scope === 'global') {
    if (!can(rc.principal, action)) {
      throw forbidden(
        `This is for ${rolesInWords(action)} (${action}), and ${rc.principal.subject} is not one`,
      );
    }
    return;
  }
  if (rc.params.agent_id !== undefined) rc.agent = await loadAgent(rc, rc.params.agent_id, fresh);
  else await loadApproval(rc, rc.params.id ?? '', fresh);
  const agent = rc.agent as PlatformAgent;
  const ref = { namespace: agent.metadata.namespace ?? '', owners: agent.spec.owners ?? [] };
  if (!can(rc.principal, action, ref)) {
    throw forbidden(
      `This is for ${rolesInWords(action)} (${action} on ${rc.audit.resource}), and ${rc.principal.subject} is not one`,
    );
  }
}

/** Characters, then the schema. Size and presence were settled when the body was read (`requestBody`). */
function checkBody(spec: RouteSpec, rc: RouteCtx): void {
  if (!spec.body || (rc.body === undefined && spec.optionalBody)) return;
  if (spec.bodyHygiene === undefined) assertClean(bodyProblem(rc.body));
  rc.body = validateBody(spec.body, rc.body);
}

/** The body, read after authentication and authorization; a route without one refuses it unread. */
function requestBody(ctx: Context, spec: RouteSpec, ex: Executor): Promise<JsonBody> {
  if (!spec.body) {
    if (hasBody(ctx)) throw badRequest('this endpoint takes no body', 'unexpected_body');
    return Promise.resolve({ body: undefined, bytes: 0 });
  }
  const routeMax = spec.maxBodyBytes?.(ex.deps) ?? ex.bodyLimitBytes;
  const read = spec.form ? readFormBody : spec.textBody ? readTextOrJsonBody : readJsonBody;
  return read(ctx, Math.min(ex.bodyLimitBytes, routeMax));
}

async function principalOf(ctx: Context, spec: RouteSpec, ex: Executor): Promise<Principal> {
  if (spec.action === 'public') return ANONYMOUS;
  return authenticatedCaller(ctx, ex);
}

/** The caller of a non-public endpoint (REST or MCP), 401 when unknown. */
export function authenticatedCaller(
  ctx: Context,
  ex: Pick<Executor, 'authenticators' | 'metrics'>,
): Promise<Principal> {
  return callerOf(ctx.get('authorization'), ex);
}

/** The caller an Authorization header names (REST, MCP, the console shell's upgrade), 401 when unknown. */
export async function callerOf(
  authorization: string,
  ex: Pick<Executor, 'authenticators' | 'metrics'>,
): Promise<Principal> {
  const outcome = await authenticateToken(authorization, ex.authenticators);
  if (typeof outcome !== 'string') {
    // The subject is stored (requestedBy, decidedBy, audit); an identity provider's claim is input too.
    if (refusedCharacter(outcome.subject) === undefined) return outcome;
    throw unauthorized('the credential names a subject with control characters');
  }
  ex.metrics?.authFailures.inc({ reason: outcome.split(/[;:]/)[0]!.slice(0, 40) });
  throw unauthorized(outcome);
}

/** How the audit log names an answer's status. */
export const outcomeOf = (status: number): 'allowed' | 'denied' | 'failed' =>
  status < 400 ? 'allowed' : status === 403 ? 'denied' : 'failed';

/** The route's state, on `ctx.state.rc` from the authentication step on. */
const routeCtx = (ctx: Context): RouteCtx => ctx.state.rc as RouteCtx;

/** Names the route for the access log and the metrics. */
const nameRoute =
  (spec: RouteSpec): Middleware =>
  (ctx, next) => {
    ctx.state.route = `${spec.method} ${spec.path}`;
    return next();
  };

/** The route's own headers on every answer; OAuth routes answer client errors as RFC 6749 §5.2 says. */
const routeHeadersAndErrors =
  (spec: RouteSpec): Middleware =>
  async (ctx, next) => {
    if (spec.headers) ctx.set(spec.headers);
    if (spec.errorShape !== 'oauth') return next();
    try {
      await next();
    } catch (err) {
      const http = toHttpError(err);
      if (!http || (http.status >= 500 && http.status !== 503)) throw err;
      ctx.status = http.status;
      ctx.set(http.headers);
      if (bodyLeftUnread(ctx)) ctx.set('connection', 'close');
      ctx.body = oauthErrorBody(http);
    }
  };

/** The caller (401 when unknown); starts the route's state. */
const authenticate =
  (spec: RouteSpec, ex: Executor): Middleware =>
  async (ctx, next) => {
    const principal = await principalOf(ctx, spec, ex);
    ctx.state.principal = principal;
    const rc: RouteCtx = {
      principal,
      params: (ctx as unknown as { params: Record<string, string> }).params,
      query: {},
      body: undefined,
      deps: ex.deps,
      audit: { resource: ctx.path },
      bodyBytes: 0,
      authorization: ctx.get('authorization'),
      header: (name) => ctx.get(name),
      connection: { destroy: () => ctx.req.socket.destroy() },
    };
    ctx.state.rc = rc;
    await next();
  };

/** One audit entry per authenticated request, whatever its outcome: the steps after it run inside. */
const audit =
  (spec: RouteSpec, ex: Executor): Middleware =>
  async (ctx, next) => {
    const action = spec.action === 'public' ? spec.auditAction : spec.action;
    if (!action) return next();
    let status = 500;
    try {
      await next();
      // The route's own status, even where Koa answers 204 for an empty body.
      status = routeCtx(ctx).status ?? spec.success;
    } catch (err) {
      status = toHttpError(err)?.status ?? 500;
      throw err;
    } finally {
      const { principal: caller, audit: note } = routeCtx(ctx);
      const principal = note.principal ?? caller;
      await ex.deps.audit.append({
        subject: principal.subject,
        method: principal.method,
        action,
        resource: note.resource,
        ...(note.namespace ? { namespace: note.namespace } : {}),
        status,
        outcome: outcomeOf(status),
        requestId: String(ctx.state.requestId),
        ...(note.details ? { details: note.details } : {}),
      });
    }
  };

/** Control characters in path and query parameters: refused before anything is looked up. */
const hygiene: Middleware = (ctx, next) => {
  const rc = routeCtx(ctx);
  rc.query = flatQuery(ctx.query);
  assertClean(paramsProblem('path', rc.params) ?? paramsProblem('query', rc.query));
  return next();
};

/** Loads the agent or approval the path names and checks the policy table (writes read fresh). */
const authorization =
  (spec: RouteSpec): Middleware =>
  async (ctx, next) => {
    await authorize(spec, routeCtx(ctx), ctx.method !== 'GET');
    await next();
  };

/** Reads the body (only now that the caller may call the route), then checks it. */
const body =
  (spec: RouteSpec, ex: Executor): Middleware =>
  async (ctx, next) => {
    const rc = routeCtx(ctx);
    const { body: read, bytes } = await requestBody(ctx, spec, ex);
    rc.body = read;
    rc.bodyBytes = bytes;
    checkBody(spec, rc);
    await next();
  };

/** Calls the handler and answers. */
const answer =
  (spec: RouteSpec): Middleware =>
  async (ctx) => {
    const rc = routeCtx(ctx);
    const result = await spec.handle(rc);
    ctx.status = rc.status ?? spec.success;
    if (spec.produces === 'text/html') ctx.type = 'text/html; charset=utf-8';
    else if (spec.produces) {
      // No buffering on the way (proxies, caches): each event is sent as it comes.
      ctx.set({ 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
      ctx.type = spec.produces;
    }
    if (ctx.status !== 204) ctx.body = result;
  };

/** A route's steps, in order; `app.ts` composes them into the route's one middleware. */
export function routeSteps(spec: RouteSpec, ex: Executor): Middleware[] {
  return [
    nameRoute(spec),
    routeHeadersAndErrors(spec),
    authenticate(spec, ex),
    audit(spec, ex),
    hygiene,
    authorization(spec),
    body(spec, ex),
    answer(spec),
  ];
}
