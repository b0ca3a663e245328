// The gateway's JSON-RPC methods: initialize, ping, tools/list (every
// server's tools under their prefixed names) and tools/call (call.ts).
// Notifications are accepted and not answered; anything else is -32601.
import type { Logger } from '../../base/log.ts';
import { listedTool } from './catalog.ts';
import { callTool, type CallDeps, type McpCaller } from './call.ts';
import {
  INTERNAL_ERROR,
  METHOD_NOT_FOUND,
  errorResponse,
  resultResponse,
  rpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import { PROTOCOL_VERSION } from './upstream.ts';

/** The MCP revisions whose messages the gateway's four methods share. */
const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export interface DispatchDeps extends CallDeps {
  log: Logger;
  version: string;
  onAnswered?: (method: string, ok: boolean) => void;
}

function initializeResult(params: Record<string, unknown>, version: string): Record<string, unknown> {
  const asked = params.protocolVersion;
  return {
    protocolVersion:
      typeof asked === 'string' && SUPPORTED_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSION,
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: 'platform-mcp-gateway', version },
  };
}

async function answer(
  req: JsonRpcRequest,
  caller: McpCaller,
  deps: DispatchDeps,
  signal: AbortSignal,
): Promise<JsonRpcResponse> {
  switch (req.method) {
    case 'initialize':
      return resultResponse(req.id, initializeResult(req.params, deps.version));
    case 'ping':
      return resultResponse(req.id, {});
    case 'tools/list':
      return resultResponse(req.id, { tools: [...deps.tools.catalog().entries.values()].map(listedTool) });
    case 'tools/call': {
      const out = await callTool(req.params, caller, deps, signal);
      return 'result' in out ? resultResponse(req.id, out.result) : errorResponse(req.id, out.error);
    }
    default:
      return errorResponse(
        req.id,
        rpcError(METHOD_NOT_FOUND, `method ${JSON.stringify(req.method.slice(0, 100))} is not served here`),
      );
  }
}

/** The answer to one message; undefined for a notification. Never rejects. */
export async function dispatch(
  message: JsonRpcMessage,
  caller: McpCaller,
  deps: DispatchDeps,
  signal: AbortSignal,
): Promise<JsonRpcResponse | undefined> {
  if (message.kind === 'notification') return undefined;
  if (message.kind === 'invalid') {
    deps.onAnswered?.('invalid', false);
    return errorResponse(message.id, message.error);
  }
  let response: JsonRpcResponse;
  try {
    response = await answer(message, caller, deps, signal);
  } catch (err) {
    deps.log.error({ err, method: message.method }, 'mcp gateway request failed');
    response = errorResponse(message.id, rpcError(INTERNAL_ERROR, 'the gateway failed; see its log'));
  }
  const known = ['initialize', 'ping', 'tools/list', 'tools/call'].includes(message.method);
  deps.onAnswered?.(known ? message.method : 'other', !('error' in response));
  return response;
}
