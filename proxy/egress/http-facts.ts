// Pure facts about one HTTP request through the proxy: where it goes, what it
// does (for Cedar and approvals), on whose behalf, and which headers reach the
// target. No sockets here.
import type { IncomingHttpHeaders } from 'node:http';
import type { EgressAction, Injection } from '../../contract/egress.ts';
import { SUBAGENT_HEADER } from '../../contract/console.ts';
import { parseAuthority, type Destination } from '../route.ts';

/** The header carrying the user's own token for OBO calls; never forwarded. */
export const SUBJECT_TOKEN_HEADER = 'x-platform-subject-token';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** What a method does: reads are safe, everything else changes something (a write at least). */
export function actionOf(method: string): EgressAction {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
      return 'read';
    case 'DELETE':
      return 'delete';
    default:
      return 'write';
  }
}

export interface RequestTarget {
  destination: Destination;
  /** Path and query as sent to the target (origin-form). */
  pathAndQuery: string;
  /** The path without query string, for records and approvals (a query may carry secrets). */
  path: string;
}

export interface ConnectionFacts {
  scheme: 'http' | 'https';
  /** Intercepted TLS: the host the connection was opened for (CONNECT authority or SNI). */
  tlsHost?: string;
  /** The port to assume when the request names none (original destination port, else 80/443). */
  defaultPort: number;
}

/**
 * Where a request goes. Over intercepted TLS the connection's host is the
 * destination and a Host naming another is refused (421): one TLS session is
 * one destination. Plain HTTP goes by absolute-form URL, else Host.
 */
export function targetOf(
  url: string,
  hostHeader: string | undefined,
  c: ConnectionFacts,
): RequestTarget | { status: number; reason: string } {
  let authority = hostHeader;
  let pathAndQuery = url;
  const absolute = /^https?:\/\/([^/?#]+)([^#]*)/i.exec(url);
  if (absolute) {
    authority = absolute[1];
    pathAndQuery = absolute[2] || '/';
  }
  if (!pathAndQuery.startsWith('/')) return { status: 400, reason: 'unsupported request target' };
  if (!authority) return { status: 400, reason: 'missing Host' };
  if (/@/.test(authority)) return { status: 400, reason: 'credentials in the authority are not accepted' };
  const destination = parseAuthority(authority, c.defaultPort);
  if (!destination) return { status: 400, reason: 'bad Host' };
  if (c.tlsHost !== undefined && destination.host !== c.tlsHost)
    return { status: 421, reason: `this connection is for ${c.tlsHost}, not ${destination.host}` };
  if (c.tlsHost !== undefined) destination.port = c.defaultPort;
  return { destination, pathAndQuery, path: pathAndQuery.split('?')[0] as string };
}

/** The `sub` (or another claim) of a JWT, unverified: only a hint for Cedar; the token exchange verifies. */
export function userOf(token: string | undefined, claim: string): string {
  if (!token) return '';
  const payload = token.split('.')[1];
  if (!payload) return '';
  try {
    const value = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>)[
      claim
    ];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

const single = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export const subjectTokenOf = (headers: IncomingHttpHeaders): string | undefined =>
  single(headers[SUBJECT_TOKEN_HEADER]);

/** Header names the `Connection` header lists (they are hop-by-hop for this message). */
function connectionNamed(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const token of (raw[i + 1] as string).split(',')) named.add(token.trim().toLowerCase());
  }
  return named;
}

/**
 * The request headers for the target, as raw [name, value] pairs: without
 * hop-by-hop headers, the ones named by `Connection`, the subject token, the
 * subagent's name (the agent's word to the proxy) and whatever the injection strips or sets; then the injection's own.
 */
export function forwardHeaders(raw: readonly string[], injection: Injection | undefined): string[] {
  const set = injection?.set ?? {};
  const dropped = new Set([
    ...HOP_BY_HOP,
    ...connectionNamed(raw),
    ...(injection?.strip ?? []).map((h) => h.toLowerCase()),
    ...Object.keys(set).map((h) => h.toLowerCase()),
    SUBJECT_TOKEN_HEADER,
    SUBAGENT_HEADER,
  ]);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!dropped.has((raw[i] as string).toLowerCase())) out.push(raw[i] as string, raw[i + 1] as string);
  for (const [name, value] of Object.entries(set)) out.push(name, value);
  return out;
}

/** The response headers for the agent: without hop-by-hop headers. */
export function responseHeaders(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (HOP_BY_HOP.has((raw[i] as string).toLowerCase())) continue;
    out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}
