// JSON-RPC 2.0 as the gateway reads it, pure: a body is one message or a
// batch (at most `maxBatch`); each message is a request (answered), a
// notification (accepted, never answered) or invalid (answered with an
// error, id null when it had none). Responses from MCP servers are not
// handled here.

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  kind: 'request';
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
}

export interface JsonRpcNotification {
  kind: 'notification';
  method: string;
}

export interface JsonRpcInvalid {
  kind: 'invalid';
  id: JsonRpcId | null;
  error: JsonRpcError;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcInvalid;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcError };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Implementation-defined server errors (-32000 to -32099): the gateway's refusals. */
export const CALL_REFUSED = -32001;
export const UPSTREAM_FAILED = -32002;

export const rpcError = (code: number, message: string, data?: Record<string, unknown>): JsonRpcError =>
  data ? { code, message, data } : { code, message };

export const errorResponse = (id: JsonRpcId | null, error: JsonRpcError): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error,
});

export const resultResponse = (id: JsonRpcId, result: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  result,
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isId = (v: unknown): v is JsonRpcId =>
  (typeof v === 'string' && v.length <= 256) || (typeof v === 'number' && Number.isFinite(v));

const invalid = (id: JsonRpcId | null, message: string, code = INVALID_REQUEST): JsonRpcInvalid => ({
  kind: 'invalid',
  id,
  error: rpcError(code, message),
});

/** What is wrong with a message's envelope (jsonrpc, method, id); '' when nothing. */
function envelopeProblem(value: Record<string, unknown>): string {
  if (value.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof value.method !== 'string' || value.method === '') return 'method must be a non-empty string';
  if ('id' in value && !isId(value.id)) return 'id must be a string or a number';
  return '';
}

/** One message of a body, classified. */
export function readMessage(value: unknown): JsonRpcMessage {
  if (!isObject(value)) return invalid(null, 'a JSON-RPC message is an object');
  const id = isId(value.id) ? value.id : undefined;
  const problem = envelopeProblem(value);
  if (problem) return invalid(id ?? null, problem);
  const params = value.params ?? {};
  if (!isObject(params)) return invalid(id ?? null, 'params must be an object', INVALID_PARAMS);
  const method = value.method as string;
  if (id === undefined) return { kind: 'notification', method };
  return { kind: 'request', id, method, params };
}

export type ParsedBody = { batch: boolean; messages: JsonRpcMessage[] } | { error: JsonRpcError };

/** The body's messages, or the one error that answers the whole body (not JSON, empty or too large a batch). */
export function parseBody(text: string, maxBatch: number): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: rpcError(PARSE_ERROR, 'the body is not JSON') };
  }
  if (!Array.isArray(value)) return { batch: false, messages: [readMessage(value)] };
  if (value.length === 0) return { error: rpcError(INVALID_REQUEST, 'an empty batch') };
  if (value.length > maxBatch)
    return { error: rpcError(INVALID_REQUEST, `a batch holds at most ${maxBatch} messages`) };
  return { batch: true, messages: value.map(readMessage) };
}
