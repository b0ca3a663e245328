// The init container's traffic redirection, as service-mesh init containers do
// it: every outbound TCP connection of the pod goes through a nat chain; the
// sidecars' fixed UID returns early (so the gateway and proxy do not loop),
// loopback and DNS stay direct, model endpoints go to the gateway (8099) and
// everything else to the credential proxy (8088). The pod's own model
// endpoint (its model URL, when that names an IP address) is always model
// traffic, whatever the cluster-wide CIDRs and ports say. Pure: rules in,
// script out.
//
// Where NET_ADMIN is not allowed (restricted Pod Security), the documented
// alternative is to set the agent's HTTP(S)_PROXY / model base URL to the
// gateway and proxy ports instead; the webhook's `redirect=false` setting omits
// the init container.

import { isIP } from 'node:net';

export const REDIRECT_CHAIN = 'PLATFORM_OUTPUT';

/** One model destination: an IP address (v4 or v6) and a TCP port. */
export interface ModelEndpoint {
  address: string;
  port: number;
}

export interface RedirectOptions {
  gatewayPort: number;
  proxyPort: number;
  /** Traffic from this UID (the sidecars) is never redirected. */
  sidecarUid: number;
  /** Destinations that are model endpoints (IPv4 CIDRs). */
  modelCidrs: readonly string[];
  /** Destination ports that are model traffic wherever they go (e.g. 11434). */
  modelPorts: readonly number[];
  /** Destinations never redirected (e.g. the Kubernetes API). */
  excludeCidrs?: readonly string[];
  /** This pod's model (address and port): to the gateway before any exclusion. */
  modelEndpoints?: readonly ModelEndpoint[];
}

/**
 * The model endpoint a model URL names when its host is an IP address
 * (`http://10.88.0.1:11434/v1` → 10.88.0.1 port 11434; the scheme's port when
 * none is given). A name is left to the cluster-wide CIDRs and the proxy's
 * guard; a loopback address is a model in the pod itself, nothing to redirect.
 */
export function modelEndpointOf(modelUrl: string): ModelEndpoint | undefined {
  let url: URL;
  try {
    url = new URL(modelUrl);
  } catch {
    return undefined;
  }
  const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  if (family === 0 || /^127\./.test(address) || address === '::1') return undefined;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { address, port };
}

const CIDR_RE = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;

const isPort = (p: number): boolean => Number.isInteger(p) && p >= 1 && p <= 65535;

/** Problems with the options (each names the bad value); empty when valid. */
export function checkRedirectOptions(o: RedirectOptions): string[] {
  const endpoints = o.modelEndpoints ?? [];
  const cidrs = [...o.modelCidrs, ...(o.excludeCidrs ?? [])];
  const ports = [o.gatewayPort, o.proxyPort, ...o.modelPorts, ...endpoints.map((e) => e.port)];
  return [
    ...cidrs
      .filter((c) => !CIDR_RE.test(c))
      .map((c) => `${JSON.stringify(c)} is not an IPv4 CIDR such as 10.0.0.0/8`),
    ...endpoints
      .filter((e) => isIP(e.address) === 0)
      .map((e) => `${JSON.stringify(e.address)} is not an IP address`),
    ...ports.filter((p) => !isPort(p)).map((p) => `${p} is not a port`),
    ...(Number.isInteger(o.sidecarUid) && o.sidecarUid >= 1
      ? []
      : [`sidecar UID ${o.sidecarUid} must be a non-root UID`]),
  ];
}

/** Match arguments of the pod's model endpoints of one address family. */
function endpointRules(o: RedirectOptions, family: 4 | 6): string[][] {
  const bits = family === 4 ? 32 : 128;
  return (o.modelEndpoints ?? [])
    .filter((e) => isIP(e.address) === family)
    .map((e) => ['-p', 'tcp', '-d', `${e.address}/${bits}`, '--dport', String(e.port)]);
}

/** The iptables argument vectors (without the `iptables` word), in order. */
export function redirectRules(o: RedirectOptions): string[][] {
  const append = (...rule: string[]): string[] => ['-t', 'nat', '-A', REDIRECT_CHAIN, ...rule];
  const toGateway = ['-j', 'REDIRECT', '--to-ports', String(o.gatewayPort)];
  return [
    append('-m', 'owner', '--uid-owner', String(o.sidecarUid), '-j', 'RETURN'),
    append('-d', '127.0.0.0/8', '-j', 'RETURN'),
    append('-p', 'tcp', '--dport', '53', '-j', 'RETURN'),
    ...endpointRules(o, 4).map((r) => append(...r, ...toGateway)),
    ...(o.excludeCidrs ?? []).map((c) => append('-d', c, '-j', 'RETURN')),
    ...o.modelCidrs.map((c) => append('-p', 'tcp', '-d', c, ...toGateway)),
    ...o.modelPorts.map((p) => append('-p', 'tcp', '--dport', String(p), ...toGateway)),
    append('-p', 'tcp', '-j', 'REDIRECT', '--to-ports', String(o.proxyPort)),
  ];
}

/**
 * The ip6tables argument vectors. The model CIDRs are IPv4, so over IPv6 only
 * model ports go to the gateway and everything else to the proxy, whose guard
 * refuses model hosts by name. Without this an agent could skip both sidecars
 * by dialling an IPv6 address.
 */
export function redirectRules6(o: RedirectOptions): string[][] {
  const append = (...rule: string[]): string[] => ['-t', 'nat', '-A', REDIRECT_CHAIN, ...rule];
  return [
    append('-m', 'owner', '--uid-owner', String(o.sidecarUid), '-j', 'RETURN'),
    append('-d', '::1/128', '-j', 'RETURN'),
    append('-p', 'tcp', '--dport', '53', '-j', 'RETURN'),
    ...endpointRules(o, 6).map((r) => append(...r, '-j', 'REDIRECT', '--to-ports', String(o.gatewayPort))),
    ...o.modelPorts.map((p) =>
      append('-p', 'tcp', '--dport', String(p), '-j', 'REDIRECT', '--to-ports', String(o.gatewayPort)),
    ),
    append('-p', 'tcp', '-j', 'REDIRECT', '--to-ports', String(o.proxyPort)),
  ];
}

/**
 * A POSIX shell script that installs the rules; safe to run twice (the chain is
 * flushed, the jump from OUTPUT added once). Every value is validated first,
 * so nothing user-controlled reaches the shell unchecked.
 */
export function redirectScript(o: RedirectOptions): string {
  const problems = checkRedirectOptions(o);
  if (problems.length) throw new Error(`invalid redirect options: ${problems.join('; ')}`);
  const jump = `-t nat -C OUTPUT -p tcp -j ${REDIRECT_CHAIN}`;
  const install = (tool: string, rules: string[][]): string[] => [
    `${tool} -t nat -N ${REDIRECT_CHAIN} 2>/dev/null || ${tool} -t nat -F ${REDIRECT_CHAIN}`,
    ...rules.map((r) => `${tool} ${r.join(' ')}`),
    `${tool} ${jump} 2>/dev/null || ${tool} ${jump.replace('-C', '-A')}`,
  ];
  return [
    'set -eu',
    ...install('iptables', redirectRules(o)),
    // A node without IPv6 (or its nat table) has no IPv6 path to close.
    'if ip6tables -t nat -S OUTPUT >/dev/null 2>&1; then',
    ...install('ip6tables', redirectRules6(o)).map((line) => `  ${line}`),
    'fi',
    '',
  ].join('\n');
}
