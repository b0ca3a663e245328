// tools/call through the gateway: the prefixed name resolved to its server
// and tool, then the egress pipeline every call of the agent goes through:
// access (Cedar, via `EgressAccess`), an Owner's approval for a high-risk
// call (nothing reaches the server before it), the call itself within
// MCP_GATEWAY_CALL_TIMEOUT, and one data-access record whatever happened.
// Refusals are JSON-RPC errors, never the call.
import type {
  AccessQuestion,
  AccessSink,
  ApprovalGate,
  ApprovalOutcome,
  DataAccess,
  EgressAccess,
  McpServerRef,
} from '../../contract/egress.ts';
import type { Catalog, CatalogEntry } from './catalog.ts';
import { CALL_REFUSED, INVALID_PARAMS, UPSTREAM_FAILED, rpcError, type JsonRpcError } from './jsonrpc.ts';
import { UpstreamError, serverAddress } from './upstream.ts';

export interface ToolForwarder {
  catalog(): Catalog;
  request(
    server: McpServerRef,
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
}

export interface CallDeps {
  tools: ToolForwarder;
  access: EgressAccess;
  approvals: ApprovalGate;
  sink: AccessSink;
  callTimeoutMs: number;
}

export type CallAnswer = { result: unknown } | { error: JsonRpcError };

/** Who makes a call: the user ('' for the agent itself) and the subagent the agent runtime named. */
export interface McpCaller {
  user: string;
  subagent?: string;
}

/** Approval arguments shown to the approver are cut at this many characters. */
const MAX_SHOWN_ARGUMENTS = 2048;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const refused = (code: string, detail: string): CallAnswer => ({
  error: rpcError(CALL_REFUSED, detail, { detail, code }),
});

function approvalRefusal(o: Exclude<ApprovalOutcome, { outcome: 'approved' }>): {
  outcome: DataAccess['outcome'];
  code: string;
} {
  if (o.outcome === 'expired' || o.outcome === 'timeout')
    return { outcome: 'approval_timeout', code: 'approval_timeout' };
  return { outcome: 'approval_denied', code: 'approval_denied' };
}

interface CallContext {
  entry: CatalogEntry;
  args: Record<string, unknown>;
  question: AccessQuestion;
  subagent?: string;
  started: number;
  record: (a: Pick<DataAccess, 'outcome'> & Partial<DataAccess>) => void;
}

function context(
  entry: CatalogEntry,
  args: Record<string, unknown>,
  { user, subagent }: McpCaller,
  sink: AccessSink,
): CallContext {
  const { host, port } = serverAddress(entry.server.url);
  const question: AccessQuestion = { host, port, action: entry.action, method: 'tools/call', user };
  const started = Date.now();
  const up = JSON.stringify(args).length;
  const record: CallContext['record'] = (a) =>
    sink.record({
      at: new Date(started).toISOString(),
      kind: 'mcp',
      destination: `${host}:${port}`,
      method: 'tools/call',
      action: entry.action,
      path: `${new URL(entry.server.url).pathname}#${entry.tool.name}`,
      ...(user ? { user } : {}),
      ...(subagent ? { subagent } : {}),
      bytesUp: up,
      bytesDown: 0,
      durationMs: Date.now() - started,
      ...a,
    });
  return { entry, args, question, ...(subagent ? { subagent } : {}), started, record };
}

async function approve(
  c: CallContext,
  approvals: ApprovalGate,
  signal: AbortSignal,
): Promise<CallAnswer | string> {
  const { entry } = c;
  const url = new URL(entry.server.url);
  const outcome = await approvals.hold(
    {
      action: entry.action,
      target: `tools/call ${url.origin}${url.pathname}`,
      description: `MCP tool ${entry.tool.name} of ${entry.server.name}`,
      details: {
        server: entry.server.name,
        tool: entry.tool.name,
        annotations: entry.tool.annotations ?? {},
        arguments: JSON.stringify(c.args).slice(0, MAX_SHOWN_ARGUMENTS),
        ...(c.subagent ? { subagent: c.subagent } : {}),
      },
    },
    signal,
  );
  if (outcome.outcome === 'approved') return outcome.approvalId;
  const { outcome: recorded, code } = approvalRefusal(outcome);
  c.record({
    outcome: recorded,
    reason: outcome.reason,
    ...(outcome.approvalId ? { approvalId: outcome.approvalId } : {}),
  });
  return refused(code, `the call was not approved: ${outcome.reason}`);
}

async function forward(
  c: CallContext,
  deps: CallDeps,
  approvalId: string | undefined,
  signal: AbortSignal,
): Promise<CallAnswer> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(deps.callTimeoutMs)]);
  const ids = approvalId ? { approvalId } : {};
  try {
    const params = { name: c.entry.tool.name, arguments: c.args };
    const result = await deps.tools.request(c.entry.server, 'tools/call', params, deadline);
    c.record({ outcome: 'forwarded', bytesDown: JSON.stringify(result).length, ...ids });
    return { result };
  } catch (err) {
    const reason = err instanceof UpstreamError ? err.message : 'the call failed';
    c.record({ outcome: 'upstream_error', reason, ...ids });
    if (err instanceof UpstreamError && err.rpc) return { error: err.rpc };
    const code = err instanceof UpstreamError ? `upstream_${err.code}` : 'upstream_failed';
    return {
      error: rpcError(UPSTREAM_FAILED, reason, { detail: reason, code, server: c.entry.server.name }),
    };
  }
}

/** One tools/call, as the agent (user '') or for an external client's user. */
export async function callTool(
  params: Record<string, unknown>,
  caller: McpCaller,
  deps: CallDeps,
  signal: AbortSignal,
): Promise<CallAnswer> {
  if (typeof params.name !== 'string')
    return { error: rpcError(INVALID_PARAMS, 'params.name must be a string') };
  const args = params.arguments ?? {};
  if (!isObject(args)) return { error: rpcError(INVALID_PARAMS, 'params.arguments must be an object') };
  const entry = deps.tools.catalog().entries.get(params.name);
  if (!entry)
    return { error: rpcError(INVALID_PARAMS, `unknown tool ${JSON.stringify(params.name.slice(0, 140))}`) };
  const c = context(entry, args, caller, deps.sink);
  const access = await deps.access.decide(c.question);
  if (!access.allow) {
    c.record({ outcome: 'denied', reason: access.reason });
    return refused('access_denied', `the call is not permitted: ${access.reason}`);
  }
  let approvalId: string | undefined;
  if (deps.access.needsApproval(c.question)) {
    const approved = await approve(c, deps.approvals, signal);
    if (typeof approved !== 'string') return approved;
    approvalId = approved;
  }
  return forward(c, deps, approvalId, signal);
}
