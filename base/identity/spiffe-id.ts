// SPIFFE IDs (https://github.com/spiffe/spiffe/blob/main/standards/SPIFFE-ID.md):
// `spiffe://<trust domain>/<path>`, lowercase trust domain, path segments of
// letters, digits, `.`, `-`, `_` (never `.` or `..`), no query or fragment.
const TRUST_DOMAIN_RE = /^[a-z0-9._-]{1,255}$/;
const SEGMENT_RE = /^[A-Za-z0-9._-]+$/;

export const isTrustDomain = (td: string): boolean => TRUST_DOMAIN_RE.test(td);

/** The trust domain of a valid SPIFFE ID with a path; undefined for anything else. */
export function trustDomainOf(id: string): string | undefined {
  if (id.length > 2048 || !id.startsWith('spiffe://')) return undefined;
  const rest = id.slice('spiffe://'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const td = rest.slice(0, slash);
  const segments = rest.slice(slash + 1).split('/');
  const pathOk = segments.every((s) => SEGMENT_RE.test(s) && s !== '.' && s !== '..');
  return isTrustDomain(td) && pathOk ? td : undefined;
}

/** An agent's SPIFFE ID: `spiffe://{trust_domain}/agent/{agent_id}`. */
export const agentSpiffeId = (trustDomain: string, agentId: string): string =>
  `spiffe://${trustDomain}/agent/${agentId}`;
