// The proxy's built-in egress guard. The redirect sends model traffic to the
// Gateway by destination address, but the proxy routes by the name the agent
// puts in SNI, Host or CONNECT: without this guard an agent could dial any
// address with SNI set to a model host and reach the model unaudited. So the
// proxy resolves the name itself, refuses model destinations and the
// link-local range (cloud metadata endpoints), and connects to the address it
// checked (no second lookup an attacker's DNS could answer differently).
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { EgressDecision, EgressPolicy, EgressRequest } from './policy.ts';

export interface GuardRules {
  /** IPv4 CIDRs whose traffic must go through the Gateway (the webhook's model CIDRs). */
  modelCidrs: readonly string[];
  /** Destination ports that are model traffic wherever they go. */
  modelPorts: readonly number[];
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const defaultLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Parses `a.b.c.d/n` CIDRs into a block list; throws naming the first bad one. */
export function modelBlockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  // Link-local (169.254.0.0/16, fe80::/10): cloud metadata services answer there.
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addSubnet('fe80::', 10, 'ipv6');
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/');
    const n = Number(bits);
    if (!net || isIP(net) !== 4 || !Number.isInteger(n) || n < 0 || n > 32)
      throw new Error(`${JSON.stringify(cidr)} is not an IPv4 CIDR such as 10.0.0.0/8`);
    list.addSubnet(net, n, 'ipv4');
  }
  return list;
}

/** Pure: the decision for a destination port and the addresses its name resolved to. */
export function guardDecision(
  port: number,
  addresses: readonly { address: string; family: number }[],
  blocked: BlockList,
  modelPorts: readonly number[],
): EgressDecision {
  if (modelPorts.includes(port))
    return { allow: false, reason: `port ${port} is model traffic: use the gateway` };
  if (addresses.length === 0) return { allow: false, reason: 'destination did not resolve' };
  for (const a of addresses) {
    if (blocked.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'))
      return { allow: false, reason: `${a.address} is a model or link-local address: not through the proxy` };
  }
  return { allow: true, address: addresses[0]!.address };
}

/** Resolves, checks every address, and pins the connection to the first one. */
export function modelGuard(rules: GuardRules, lookup: Lookup = defaultLookup): EgressPolicy {
  const blocked = modelBlockList(rules.modelCidrs);
  return {
    async decide({ destination }: EgressRequest): Promise<EgressDecision> {
      const host = destination.host;
      let addresses: { address: string; family: number }[];
      try {
        addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host);
      } catch (err) {
        return {
          allow: false,
          reason: `cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
        };
      }
      return guardDecision(destination.port, addresses, blocked, rules.modelPorts);
    },
  };
}
