// An MCP tool call that mirrors a REST route runs that route's own checks:
// the policy table (`can`, same action), control characters in parameters,
// query and body, the body schema, then the route's handler, and one audit entry
// whatever the outcome. So a tool can never allow what the REST route refuses.
import { forbidden } from '../../base/http-error.ts';
import { assertClean, bodyProblem, paramsProblem } from '../../base/hygiene.ts';
import type { Principal } from '../auth/principal.ts';
import { toHttpError } from '../http/errors.ts';
import { validateBody } from '../http/validate.ts';
import { can, POLICY } from '../policy/roles.ts';
import { ROUTES } from '../routes/index.ts';
import type { ApiDeps, AuditNote, Method, RouteCtx, RouteSpec } from '../routes/route.ts';

export interface RouteCall {
  method: Method;
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CallerContext {
  principal: Principal;
  deps: ApiDeps;
  requestId: string;
}

function routeOf(method: Method, path: string): RouteSpec {
  const route = ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route;
}

function checked(route: RouteSpec, rc: RouteCtx): void {
  if (route.action === 'public') return;
  // Only global actions are mirrored; an agent-scoped one would need the route's agent loading.
  if (POLICY[route.action].scope !== 'global') throw new Error(`${route.action} is agent-scoped`);
  if (!can(rc.principal, route.action)) {
    throw forbidden(`${route.action} is not allowed for ${rc.principal.subject}`);
  }
  assertClean(paramsProblem('path', rc.params) ?? paramsProblem('query', rc.query));
  if (route.body && rc.body !== undefined) {
    assertClean(bodyProblem(rc.body));
    rc.body = validateBody(route.body, rc.body);
  }
}

/** Runs `run` and appends one audit entry for it, allowed, denied or failed, like a REST request. */
export async function audited<T>(
  who: CallerContext,
  entry: { action: string; note: () => AuditNote; success: () => number },
  run: () => Promise<T>,
): Promise<T> {
  let status = 500;
  try {
    const out = await run();
    status = entry.success();
    return out;
  } catch (err) {
    status = toHttpError(err)?.status ?? 500;
    throw err;
  } finally {
    const note = entry.note();
    await who.deps.audit.append({
      subject: who.principal.subject,
      method: who.principal.method,
      action: entry.action,
      resource: note.resource,
      ...(note.namespace ? { namespace: note.namespace } : {}),
      status,
      outcome: status < 400 ? 'allowed' : status === 403 ? 'denied' : 'failed',
      requestId: who.requestId,
      details: { via: 'mcp', ...note.details },
    });
  }
}

/** Runs the REST route `method path` for the caller; throws its HttpError on refusal. */
export async function callRoute(call: RouteCall, who: CallerContext): Promise<unknown> {
  const route = routeOf(call.method, call.path);
  const rc: RouteCtx = {
    principal: who.principal,
    params: call.params ?? {},
    query: call.query ?? {},
    body: call.body,
    deps: who.deps,
    audit: { resource: call.path },
    bodyBytes: 0,
    authorization: '',
    header: () => '',
    // An MCP tool answers once; no route it calls streams.
    connection: { destroy: () => undefined },
  };
  const entry = { action: route.action, note: () => rc.audit, success: () => rc.status ?? route.success };
  return audited(who, entry, async () => {
    checked(route, rc);
    return route.handle(rc);
  });
}
