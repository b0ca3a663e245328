// Responses the proxy writes itself on the raw socket: its /healthz, /readyz
// and /metrics (the kubelet and Prometheus reach the proxy on its one port)
// and the short errors of explicit proxy mode (400, 403, 431, 502). Every
// response closes the connection, so no second request is read unparsed.
import type { Registry } from 'prom-client';
import type { OpsPath } from './route.ts';

const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  431: 'Request Header Fields Too Large',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A complete HTTP/1.1 response with `connection: close`. `head` omits the body (HEAD requests). */
export function httpResponse(status: number, body: string, type = 'application/json', head = false): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const lines = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}`,
    `content-type: ${type}`,
    `content-length: ${payload.length}`,
    'connection: close',
    '',
    '',
  ];
  const top = Buffer.from(lines.join('\r\n'), 'latin1');
  return head ? top : Buffer.concat([top, payload]);
}

/** A JSON error body with a short reason (never a header or URL of the request). */
export function errorResponse(status: number, reason: string): Buffer {
  return httpResponse(status, JSON.stringify({ detail: reason }));
}

export interface OpsState {
  registry: Registry;
  /** '' when ready, otherwise why not. */
  readiness(): string;
}

/** The answer to a local ops request. */
export async function opsResponse(path: OpsPath, method: string, state: OpsState): Promise<Buffer> {
  const head = method === 'HEAD';
  if (path === '/metrics')
    return httpResponse(200, await state.registry.metrics(), state.registry.contentType, head);
  const reason = path === '/readyz' ? state.readiness() : '';
  const failures = reason ? [reason] : [];
  const body = JSON.stringify({ status: reason ? 'fail' : 'ok', failures });
  return httpResponse(reason ? 503 : 200, body, 'application/json', head);
}
