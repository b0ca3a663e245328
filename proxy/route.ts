// Where a connection goes, decided from its first bytes. Pure: no sockets, no
// DNS. The proxy sees three kinds of client on one port (8088): transparent
// HTTPS redirected by iptables (routed by SNI), explicit `CONNECT` from an
// agent that uses HTTPS_PROXY, and transparent plain HTTP (routed by Host),
// among which the kubelet's probes and Prometheus scrapes are answered here.
import { isIPv4, isIPv6 } from 'node:net';
import { headerOf, type RequestHead } from './http-head.ts';
import { normalizeHostName } from './sni.ts';

export interface Destination {
  /** A DNS name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
}

export type OpsPath = '/healthz' | '/readyz' | '/metrics';
const OPS_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

export type Route =
  | { kind: 'local'; path: OpsPath }
  | { kind: 'connect'; destination: Destination }
  | { kind: 'forward'; destination: Destination }
  | { kind: 'bad'; reason: string }
  /** The destination is this proxy: connecting would loop. */
  | { kind: 'loop'; destination: Destination };

export interface RouteOptions {
  /** Port assumed for transparent plain HTTP when Host names none. */
  plainPort: number;
  /** The proxy's own port: a destination on this port of a local address loops. */
  listenPort: number;
  /** The pod's own addresses (besides loopback and `localhost`). */
  ownAddresses: ReadonlySet<string>;
}

/** `host:port` for logs and metrics, IPv6 in brackets. */
export function formatDestination(d: Destination): string {
  return d.host.includes(':') ? `[${d.host}]:${d.port}` : `${d.host}:${d.port}`;
}

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

function parseHost(text: string): string | undefined {
  if (text.startsWith('[') && text.endsWith(']')) {
    const inner = text.slice(1, -1);
    return isIPv6(inner) ? inner.toLowerCase() : undefined;
  }
  if (isIPv4(text)) return text;
  return normalizeHostName(text);
}

/**
 * Parses `host`, `host:port`, `[v6]` or `[v6]:port`. Without a port the
 * default applies; with no default a port is required (CONNECT).
 */
export function parseAuthority(text: string, defaultPort?: number): Destination | undefined {
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::([^:]*))?$/.exec(text);
  if (!m) return undefined;
  const host = parseHost(m[1] as string);
  const port = m[2] !== undefined ? parsePort(m[2]) : defaultPort;
  return host && port ? { host, port } : undefined;
}

/** `localhost`, loopback or one of the pod's own addresses. */
export function isLocalHost(host: string, ownAddresses: ReadonlySet<string>): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (isIPv4(host) && host.startsWith('127.')) return true;
  return ownAddresses.has(host);
}

/** True when connecting to the destination would reach this proxy again. */
export function isSelf(d: Destination, o: RouteOptions): boolean {
  return d.port === o.listenPort && isLocalHost(d.host, o.ownAddresses);
}

interface Target {
  /** undefined: the request named no host at all. */
  authority: string | undefined;
  explicitPort: boolean;
  path: string;
  defaultPort: number;
}

function targetOf(head: RequestHead, o: RouteOptions): Target | string {
  const host = headerOf(head, 'host');
  if (head.target.startsWith('/')) {
    const authority = host === '' ? undefined : host;
    const explicitPort = authority !== undefined && /:\d+$/.test(authority);
    return { authority, explicitPort, path: head.target.split('?')[0] as string, defaultPort: o.plainPort };
  }
  // Absolute-form (an explicit proxy client): the URL wins over Host (RFC 9112 §3.2.2).
  const m = /^http:\/\/([^/?#@]+)([/?#].*)?$/i.exec(head.target);
  if (m) {
    const authority = m[1] as string;
    const path = (m[2] ?? '/').split(/[?#]/)[0] || '/';
    return { authority, explicitPort: /:\d+$/.test(authority), path, defaultPort: 80 };
  }
  if (/^https:\/\//i.test(head.target)) return 'https URLs need CONNECT';
  return 'unsupported request target';
}

function isLocalOps(head: RequestHead, t: Target, d: Destination | undefined, o: RouteOptions): boolean {
  if (!OPS_PATHS.includes(t.path) || (head.method !== 'GET' && head.method !== 'HEAD')) return false;
  if (t.authority === undefined) return true;
  // The kubelet and Prometheus send Host `<pod ip>:<port>`; an agent calling
  // another local port with the same path is not meant for us.
  return (
    d !== undefined && isLocalHost(d.host, o.ownAddresses) && (!t.explicitPort || d.port === o.listenPort)
  );
}

/** The route of an HTTP/1.x request head. */
export function routeHead(head: RequestHead, o: RouteOptions): Route {
  if (head.method === 'CONNECT') {
    const destination = parseAuthority(head.target);
    if (!destination) return { kind: 'bad', reason: 'CONNECT target must be host:port' };
    return isSelf(destination, o) ? { kind: 'loop', destination } : { kind: 'connect', destination };
  }
  const t = targetOf(head, o);
  if (typeof t === 'string') return { kind: 'bad', reason: t };
  const destination = t.authority === undefined ? undefined : parseAuthority(t.authority, t.defaultPort);
  if (isLocalOps(head, t, destination, o)) return { kind: 'local', path: t.path as OpsPath };
  if (t.authority === undefined) return { kind: 'bad', reason: 'missing Host' };
  if (!destination) return { kind: 'bad', reason: 'bad Host' };
  return isSelf(destination, o) ? { kind: 'loop', destination } : { kind: 'forward', destination };
}
