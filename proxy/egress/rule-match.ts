// Which credential routing rule a destination host falls under. An exact
// destination beats every wildcard; `*.example.com` covers subdomains at any
// depth (never `example.com` itself, `badexample.com` or
// `example.com.evil.net`), and among wildcards the longest suffix wins. Host
// names compare case-insensitively with a trailing dot ignored; an IP literal
// only ever matches a rule naming that very address. Pure.
import { isIP } from 'node:net';
import type { EgressRule } from '../../contract/egress.ts';

/** Lower case, without a trailing dot or IPv6 brackets; `undefined` for an empty label. */
export function normalizeHost(host: string): string | undefined {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h === '' || (isIP(h) === 0 && h.split('.').some((label) => label === ''))) return undefined;
  return h;
}

/** The suffix a wildcard destination covers (`.example.com`), or undefined for an exact one. */
function wildcardSuffix(destination: string): string | undefined {
  if (!destination.startsWith('*.')) return undefined;
  const rest = normalizeHost(destination.slice(2));
  return rest === undefined ? undefined : `.${rest}`;
}

/** The rule for `host` (a host name or IP literal, without port), or undefined. */
export function matchRule(rules: readonly EgressRule[], host: string): EgressRule | undefined {
  const h = normalizeHost(host);
  if (h === undefined) return undefined;
  const exact = rules.find((r) => !r.destination.startsWith('*.') && normalizeHost(r.destination) === h);
  if (exact || isIP(h) !== 0) return exact;
  let best: EgressRule | undefined;
  let bestLength = 0;
  for (const rule of rules) {
    const suffix = wildcardSuffix(rule.destination);
    if (suffix && h.endsWith(suffix) && h.length > suffix.length && suffix.length > bestLength) {
      best = rule;
      bestLength = suffix.length;
    }
  }
  return best;
}
