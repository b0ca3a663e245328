// The shell's wire: the WebSocket subprotocols (the console's own, and the
// bearer token a browser passes beside it, as Kubernetes does), the JSON text
// frames each way, and the exit code of a finished exec. Pure.
import type { V1Status } from '@kubernetes/client-node';

/** The subprotocol the server answers with. */
export const SHELL_SUBPROTOCOL = 'platform.console.v1';
/** A browser cannot set `Authorization`: it offers `<prefix><base64url token>` as a subprotocol instead. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'base64url.bearer.authorization.platform.io.';
/** The largest `data` of one stdin frame, in bytes (UTF-8). */
export const MAX_STDIN_BYTES = 64 * 1024;
/** WebSocket close codes (RFC 6455 §7.4.1). */
export const CLOSE = { normal: 1000, goingAway: 1001, policy: 1008, internal: 1011 } as const;

export type ClientFrame = { type: 'stdin'; data: string } | { type: 'resize'; cols: number; rows: number };

export type ServerFrame = { type: 'stdout' | 'stderr'; data: string } | { type: 'exit'; code: number };

export interface OfferedProtocols {
  /** The protocols offered, in order (none when the header is absent). */
  offered: string[];
  /** The bearer token carried in a subprotocol, when one was. */
  token?: string;
}

const BASE64URL_RE = /^[A-Za-z0-9_-]+$/;

/** Reads `Sec-WebSocket-Protocol`; a token subprotocol that is not base64url yields `problem`. */
export function parseSubprotocols(header: string | undefined): OfferedProtocols & { problem?: string } {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const carrier = offered.find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX));
  if (!carrier) return { offered };
  const encoded = carrier.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  if (!BASE64URL_RE.test(encoded)) return { offered, problem: 'the token subprotocol is not base64url' };
  return { offered, token: Buffer.from(encoded, 'base64url').toString('utf8') };
}

/**
 * The Authorization header to authenticate with: the header itself when sent,
 * else the subprotocol's token as a bearer credential, else '' (401).
 */
export function authorizationOf(header: string | undefined, protocols: OfferedProtocols): string {
  if (header) return header;
  return protocols.token !== undefined ? `Bearer ${protocols.token}` : '';
}

/** Why a set of offered subprotocols cannot be served ('' when it can): any offer must include ours. */
export function subprotocolProblem(offered: readonly string[]): string {
  if (offered.length === 0 || offered.includes(SHELL_SUBPROTOCOL)) return '';
  return `offer the subprotocol ${SHELL_SUBPROTOCOL}`;
}

const isDimension = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10_000;

function frameFromObject(o: Record<string, unknown>): ClientFrame | string {
  if (o.type === 'stdin') {
    if (typeof o.data !== 'string') return 'a stdin frame needs string data';
    if (Buffer.byteLength(o.data, 'utf8') > MAX_STDIN_BYTES)
      return `stdin data over ${MAX_STDIN_BYTES} bytes`;
    return { type: 'stdin', data: o.data };
  }
  if (o.type === 'resize') {
    if (!isDimension(o.cols) || !isDimension(o.rows))
      return 'a resize frame needs integer cols and rows 1-10000';
    return { type: 'resize', cols: o.cols, rows: o.rows };
  }
  return `unknown frame type ${JSON.stringify(String(o.type).slice(0, 40))}`;
}

/** One client message as a frame, or why it is refused (the session closes with 1008 and that reason). */
export function parseClientFrame(message: string | Buffer, isBinary: boolean): ClientFrame | string {
  if (isBinary) return 'frames are JSON text';
  let value: unknown;
  try {
    value = JSON.parse(message.toString());
  } catch {
    return 'a frame is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a frame is a JSON object';
  return frameFromObject(value as Record<string, unknown>);
}

/**
 * The exit code an exec's final status carries: 0 on Success, the
 * `ExitCode` cause on NonZeroExitCode, else -1 (the exec failed or said nothing).
 */
export function exitCodeOf(status: V1Status | undefined): number {
  if (!status) return -1;
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  const code = Number(cause?.message);
  return Number.isInteger(code) ? code : -1;
}

/** A WebSocket close reason is at most 123 bytes. */
export function closeReason(reason: string): string {
  let out = reason.slice(0, 123);
  while (Buffer.byteLength(out, 'utf8') > 123) out = out.slice(0, -1);
  return out;
}
