// The Access Manifest, evaluated (spec "Access Manifest", "OBO consent";
// decisions 139, 140). Pure: the effective manifest of an agent is its
// organization's narrowed by its workspace; each domain answers one question.
// A tier's `allowed…` list, when present, bounds that domain; lists of
// several tiers all apply (a workspace never widens its organization), and
// `denied…` of any tier wins over every `allowed…`.
import type { Organization } from '../crds/generated/types.ts';
import { HIGH_RISK_ACTIONS } from '../crds/schema/enums.ts';

export type AccessManifest = NonNullable<Organization['spec']['accessManifest']>;
type ServiceSpec = NonNullable<NonNullable<AccessManifest['account']>['services']>[number];

/** The longest delegation the platform allows, whatever a manifest says. */
export const PLATFORM_MAX_DELEGATION_TTL_MS = 24 * 3_600_000;

/** What every tier together allows in one domain: a value must be in each `allow` list and in no `deny`. */
export interface Bounds {
  allow: string[][];
  deny: string[];
}

export interface ServiceTerms {
  service: string;
  scopes: Bounds;
  maxDelegationTtlMs: number;
  consentRequired: boolean;
}

export interface EffectiveManifest {
  /** Undefined when no tier has an account domain: delegation is bounded by the platform only. */
  account?: Map<string, ServiceTerms>;
  tools: Bounds;
  network: Bounds;
  data: Bounds;
  actions: { approvalRequired: string[]; denied: string[] };
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000 };

function durationMs(text: string | undefined): number {
  const m = /^([1-9][0-9]{0,5})([mh])$/.exec(text ?? '');
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : PLATFORM_MAX_DELEGATION_TTL_MS;
  return Math.min(ms, PLATFORM_MAX_DELEGATION_TTL_MS);
}

function bounds(tiers: (AccessManifest | undefined)[], pick: (m: AccessManifest) => [string[]?, string[]?]) {
  const out: Bounds = { allow: [], deny: [] };
  for (const tier of tiers) {
    if (!tier) continue;
    const [allow, deny] = pick(tier);
    if (allow) out.allow.push(allow);
    out.deny.push(...(deny ?? []));
  }
  return out;
}

const termsOf = (s: ServiceSpec): ServiceTerms => ({
  service: s.service,
  scopes: { allow: s.allowedScopes ? [s.allowedScopes] : [], deny: s.deniedScopes ?? [] },
  maxDelegationTtlMs: durationMs(s.maxDelegationTtl),
  consentRequired: s.consentRequired !== false,
});

/** Both tiers' terms of one service: scopes in both, the shorter TTL, consent if either asks it. */
const narrow = (a: ServiceTerms, b: ServiceTerms): ServiceTerms => ({
  service: a.service,
  scopes: { allow: [...a.scopes.allow, ...b.scopes.allow], deny: [...a.scopes.deny, ...b.scopes.deny] },
  maxDelegationTtlMs: Math.min(a.maxDelegationTtlMs, b.maxDelegationTtlMs),
  consentRequired: a.consentRequired || b.consentRequired,
});

/** Services listed by every tier that has an account domain (a tier without one does not restrict). */
function account(tiers: (AccessManifest | undefined)[]): Map<string, ServiceTerms> | undefined {
  let out: Map<string, ServiceTerms> | undefined;
  for (const tier of tiers) {
    if (!tier?.account) continue;
    const listed = new Map((tier.account.services ?? []).map((s) => [s.service, termsOf(s)] as const));
    if (!out) {
      out = listed;
      continue;
    }
    const prev: Map<string, ServiceTerms> = out;
    out = new Map(
      [...prev].flatMap(([k, v]) => (listed.has(k) ? [[k, narrow(v, listed.get(k) as ServiceTerms)]] : [])),
    );
  }
  return out;
}

/** The agent's manifest: its organization's, narrowed by its workspace's. */
export function effectiveManifest(org?: AccessManifest, ws?: AccessManifest): EffectiveManifest {
  const tiers = [org, ws];
  const acct = account(tiers);
  return {
    ...(acct ? { account: acct } : {}),
    tools: bounds(tiers, (m) => [m.tools?.allowed, m.tools?.denied]),
    network: bounds(tiers, (m) => [m.network?.allowedHosts, m.network?.deniedHosts]),
    data: bounds(tiers, (m) => [m.data?.allowedClasses, m.data?.deniedClasses]),
    actions: {
      approvalRequired: tiers.flatMap((m) => m?.actions?.approvalRequired ?? []),
      denied: tiers.flatMap((m) => m?.actions?.denied ?? []),
    },
  };
}

type Matcher = (pattern: string, value: string) => boolean;
const exact: Matcher = (p, v) => p === v;

/** Whether `value` is within the bounds (every allow list names it, no deny does). */
export function within(b: Bounds, value: string, match: Matcher = exact): boolean {
  if (b.deny.some((p) => match(p, value))) return false;
  return b.allow.every((list) => list.some((p) => match(p, value)));
}

export type Refusal = { permitted: false; code: string; reason: string };
export type AccountDecision =
  { permitted: true; scopes: string[]; maxTtlMs: number; consentRequired: boolean } | Refusal;

const UNBOUNDED: Omit<ServiceTerms, 'service'> = {
  scopes: { allow: [], deny: [] },
  maxDelegationTtlMs: PLATFORM_MAX_DELEGATION_TTL_MS,
  consentRequired: true,
};

/**
 * May `scopes` of `service` be delegated, for `ttlMs` (when given)? Every
 * requested scope must be permitted (a denied one refuses the whole request,
 * naming it); a service the account domain does not list is refused.
 */
export function accountDecision(
  manifest: EffectiveManifest,
  service: string,
  scopes: readonly string[],
  ttlMs?: number,
): AccountDecision {
  const terms = manifest.account ? manifest.account.get(service) : UNBOUNDED;
  if (!terms) {
    return {
      permitted: false,
      code: 'service_not_permitted',
      reason: `the Access Manifest does not permit delegating ${service}`,
    };
  }
  const refused = scopes.filter((s) => !within(terms.scopes, s));
  if (refused.length > 0) {
    return {
      permitted: false,
      code: 'scope_not_permitted',
      reason: `the Access Manifest does not permit ${refused.join(', ')} for ${service}`,
    };
  }
  if (ttlMs !== undefined && ttlMs > terms.maxDelegationTtlMs) {
    return {
      permitted: false,
      code: 'ttl_too_long',
      reason: `the Access Manifest allows ${service} delegations of at most ${terms.maxDelegationTtlMs / 60_000}m`,
    };
  }
  const { maxDelegationTtlMs: maxTtlMs, consentRequired } = terms;
  return { permitted: true, scopes: [...scopes], maxTtlMs, consentRequired };
}

/** May the agent install catalog app `appId` (an MCP server, A2A agent, skill, runtime)? */
export const toolPermitted = (m: EffectiveManifest, appId: string): boolean => within(m.tools, appId);

/** `*.example.com` matches its subdomains (not example.com itself); anything else matches exactly. */
export const hostMatches: Matcher = (pattern, host) =>
  pattern.startsWith('*.')
    ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1
    : pattern === host;

/** May the credential proxy reach `host` for the agent? */
export const hostPermitted = (m: EffectiveManifest, host: string): boolean =>
  within(m.network, host.toLowerCase(), hostMatches);

/** May the agent read data of class `dataClass`? (Never beyond its owners', which the caller checks.) */
export const dataPermitted = (m: EffectiveManifest, dataClass: string): boolean => within(m.data, dataClass);

export type ActionRuling = 'allowed' | 'approval_required' | 'denied';

/** Denied by a tier; else needs an Owner's approval if high-risk or named by a tier; else allowed. */
export function actionRuling(m: EffectiveManifest, action: string): ActionRuling {
  if (m.actions.denied.includes(action)) return 'denied';
  const risky = (HIGH_RISK_ACTIONS as readonly string[]).includes(action);
  return risky || m.actions.approvalRequired.includes(action) ? 'approval_required' : 'allowed';
}
