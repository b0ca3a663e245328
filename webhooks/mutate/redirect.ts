// The init container's traffic redirection, as service-mesh init containers do
// it: every outbound TCP connection of the pod goes through a nat chain; the
// sidecars' fixed UID returns early (so the gateway and proxy do not loop),
// loopback and DNS stay direct, model endpoints go to the gateway (8099) and
// everything else to the credential proxy (8088). Pure: rules in, script out.
//
// Where NET_ADMIN is not allowed (restricted Pod Security), the documented
// alternative is to set the agent's HTTP(S)_PROXY / model base URL to the
// gateway and proxy ports instead; the webhook's `redirect=false` setting omits
// the init container.

export const REDIRECT_CHAIN = 'PLATFORM_OUTPUT';

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
}

const CIDR_RE = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;

/** Problems with the options (each names the bad value); empty when valid. */
export function checkRedirectOptions(o: RedirectOptions): string[] {
  const problems: string[] = [];
  for (const c of [...o.modelCidrs, ...(o.excludeCidrs ?? [])]) {
    if (!CIDR_RE.test(c)) problems.push(`${JSON.stringify(c)} is not an IPv4 CIDR such as 10.0.0.0/8`);
  }
  for (const p of [o.gatewayPort, o.proxyPort, ...o.modelPorts]) {
    if (!Number.isInteger(p) || p < 1 || p > 65535) problems.push(`${p} is not a port`);
  }
  if (!Number.isInteger(o.sidecarUid) || o.sidecarUid < 1)
    problems.push(`sidecar UID ${o.sidecarUid} must be a non-root UID`);
  return problems;
}

/** The iptables argument vectors (without the `iptables` word), in order. */
export function redirectRules(o: RedirectOptions): string[][] {
  const append = (...rule: string[]): string[] => ['-t', 'nat', '-A', REDIRECT_CHAIN, ...rule];
  const toGateway = ['-j', 'REDIRECT', '--to-ports', String(o.gatewayPort)];
  return [
    append('-m', 'owner', '--uid-owner', String(o.sidecarUid), '-j', 'RETURN'),
    append('-d', '127.0.0.0/8', '-j', 'RETURN'),
    append('-p', 'tcp', '--dport', '53', '-j', 'RETURN'),
    ...(o.excludeCidrs ?? []).map((c) => append('-d', c, '-j', 'RETURN')),
    ...o.modelCidrs.map((c) => append('-p', 'tcp', '-d', c, ...toGateway)),
    ...o.modelPorts.map((p) => append('-p', 'tcp', '--dport', String(p), ...toGateway)),
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
  return [
    'set -eu',
    `iptables -t nat -N ${REDIRECT_CHAIN} 2>/dev/null || iptables -t nat -F ${REDIRECT_CHAIN}`,
    ...redirectRules(o).map((r) => `iptables ${r.join(' ')}`),
    `iptables ${jump} 2>/dev/null || iptables ${jump.replace('-C', '-A')}`,
    '',
  ].join('\n');
}
