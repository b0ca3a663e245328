// The egress Cedar policy of one agent (issue 19, contract B), pure: the
// Verifier generates it from the agent's state, its effective Access
// Manifest, its credential routing rules and its owners' delegation grants;
// the credential proxy evaluates it for every call. Each policy carries an
// `@id` saying why it is there; `egressPolicies` keys the set by those ids so
// a deny names its reason. Approval is not decided here: the proxy holds
// high-risk calls after an allow.
import { isAuthorized, policySetTextToParts, policyToJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { AccessQuestion, InjectionMethod } from '../contract/egress.ts';
import type { EffectiveManifest } from './access-manifest.ts';

export const EGRESS_AGENT = 'Egress::Agent';
export const EGRESS_DESTINATION = 'Egress::Destination';
export const EGRESS_ACTION = 'Egress::Action';
/** The actions the Access Manifest's actions domain may deny (`connect` is an opaque tunnel). */
const MANIFEST_ACTIONS = ['read', 'write', 'merge', 'send', 'delete'];
const SHARER_ROLES = new Set(['Owner', 'Editor', 'Viewer']);

export interface EgressRuleFacts {
  service: string;
  injectionMethod: InjectionMethod;
  /** sidecar: whether the credential cascade gives the agent the rule's credential. */
  credentialAvailable: boolean;
}

export interface GrantFacts {
  user: string;
  service: string;
  expiresAt: string;
  phase?: string;
  revokedTime?: string;
}

export interface EgressPolicyInput {
  agentId: string;
  suspended: boolean;
  owners: readonly { subject: string; role: string }[];
  manifest: EffectiveManifest;
  rules: readonly EgressRuleFacts[];
  /** The agent's DelegationGrants (any state: only active ones of current sharers count). */
  grants: readonly GrantFacts[];
  now: number;
}

/** A Cedar string literal (Cedar's escapes: `\\`, `\"`, `\u{…}` for anything unprintable). */
export function cedarString(value: string): string {
  const escaped = [...value]
    .map((ch) => {
      if (ch === '\\' || ch === '"') return `\\${ch}`;
      const code = ch.codePointAt(0) as number;
      return code < 0x20 || code === 0x7f ? `\\u{${code.toString(16)}}` : ch;
    })
    .join('');
  return `"${escaped}"`;
}

/** The condition one host pattern puts on `resource.host` (`*.x` matches subdomains of x only). */
function hostCondition(pattern: string): string {
  const p = pattern.toLowerCase();
  if (!p.startsWith('*.')) return `resource.host == ${cedarString(p)}`;
  // `like` treats `*` as a wildcard; any star after the leading one is literal.
  const rest = cedarString(p.slice(1)).slice(1, -1).replaceAll('*', '\\*');
  return `resource.host like "*${rest}"`;
}

const anyOf = (patterns: readonly string[]): string =>
  patterns.length === 0 ? 'false' : patterns.map(hostCondition).join(' || ');

/** Users of active, unexpired grants for `service` who still share the agent. */
export function grantHolders(input: EgressPolicyInput, service: string): string[] {
  const sharers = new Set(input.owners.filter((o) => SHARER_ROLES.has(o.role)).map((o) => o.subject));
  const active = (g: GrantFacts) =>
    g.phase !== 'revoked' && g.phase !== 'expired' && !g.revokedTime && Date.parse(g.expiresAt) > input.now;
  const users = input.grants.filter((g) => g.service === service && active(g) && sharers.has(g.user));
  return [...new Set(users.map((g) => g.user))].sort();
}

const policy = (id: string, text: string) => `@id(${cedarString(id)})\n${text};`;

function networkPolicies(input: EgressPolicyInput): string[] {
  const agent = `${EGRESS_AGENT}::${cedarString(input.agentId)}`;
  const { allow, deny } = input.manifest.network;
  const scope = `permit(principal == ${agent}, action, resource)`;
  const out = [
    allow.length === 0
      ? policy('network.any_host', scope)
      : policy(
          'network.allowed_hosts',
          `${scope} when { ${allow.map((l) => `(${anyOf(l)})`).join(' && ')} }`,
        ),
  ];
  for (const host of [...new Set(deny)].sort())
    out.push(
      policy(
        `network.denied_host:${host}`,
        `forbid(principal, action, resource) when { ${hostCondition(host)} }`,
      ),
    );
  return out;
}

function actionPolicies(input: EgressPolicyInput): string[] {
  const denied = MANIFEST_ACTIONS.filter((a) => input.manifest.actions.denied.includes(a));
  return denied.map((a) =>
    policy(
      `actions.denied:${a}`,
      `forbid(principal, action == ${EGRESS_ACTION}::${cedarString(a)}, resource)`,
    ),
  );
}

function grantPolicies(input: EgressPolicyInput): string[] {
  const services = new Set(
    input.rules.filter((r) => r.injectionMethod === 'token_exchange').map((r) => r.service),
  );
  return [...services].sort().map((s) => {
    const users = grantHolders(input, s).map(cedarString).join(', ');
    return policy(
      `grants.on_behalf_of:${s}`,
      `forbid(principal, action, resource) when { resource.service == ${cedarString(s)} } unless { [${users}].contains(context.user) }`,
    );
  });
}

function credentialPolicies(input: EgressPolicyInput): string[] {
  const withheld = input.rules.filter((r) => r.injectionMethod === 'sidecar' && !r.credentialAvailable);
  return [...new Set(withheld.map((r) => r.service))]
    .sort()
    .map((s) =>
      policy(
        `credential.unavailable:${s}`,
        `forbid(principal, action, resource) when { resource.service == ${cedarString(s)} && resource.routed }`,
      ),
    );
}

/** The agent's egress policy set, as Cedar text. */
export function egressCedar(input: EgressPolicyInput): string {
  const hasOwner = input.owners.some((o) => o.role === 'Owner');
  // No permit at all: the forbid only names why everything is denied.
  if (input.suspended) return policy('agent.suspended', 'forbid(principal, action, resource)') + '\n';
  if (!hasOwner) return policy('agent.no_owner', 'forbid(principal, action, resource)') + '\n';
  const all = [
    ...networkPolicies(input),
    ...actionPolicies(input),
    ...grantPolicies(input),
    ...credentialPolicies(input),
  ];
  return all.join('\n\n') + '\n';
}

export interface EgressRequest {
  principal: { type: string; id: string };
  action: { type: string; id: string };
  resource: { type: string; id: string };
  context: { user: string; method: string };
  entities: {
    uid: { type: string; id: string };
    attrs: { host: string; port: number; service: string; routed: boolean };
    parents: never[];
  }[];
}

/** The Cedar request for one question of the proxy (contract B's entities and context). */
export function egressRequest(agentId: string, q: AccessQuestion): EgressRequest {
  const host = q.host.toLowerCase();
  const resource = { type: EGRESS_DESTINATION, id: `${host}:${q.port}` };
  return {
    principal: { type: EGRESS_AGENT, id: agentId },
    action: { type: EGRESS_ACTION, id: q.action },
    resource,
    context: { user: q.user, method: q.method.toUpperCase() },
    entities: [
      {
        uid: resource,
        attrs: { host, port: q.port, service: q.rule?.service ?? '', routed: q.rule !== undefined },
        parents: [],
      },
    ],
  };
}

/** The policy set keyed by each policy's `@id` (Cedar's own ids are positional). */
export function egressPolicies(cedar: string): Record<string, string> {
  const parts = policySetTextToParts(cedar);
  if (parts.type === 'failure') throw new Error(parts.errors.map((e) => e.message).join('; '));
  const out: Record<string, string> = {};
  parts.policies.forEach((text, i) => {
    const json = policyToJson(text);
    const id = json.type === 'success' ? json.json.annotations?.id : undefined;
    out[id ?? `policy${i}`] = text;
  });
  return out;
}

export type EgressDecision = { allow: true } | { allow: false; reasons: string[] };

/** One decision with the plain (unprepared) API: deny on any error. The proxy may pre-parse instead. */
export function decideEgress(policies: Record<string, string>, request: EgressRequest): EgressDecision {
  const answer = isAuthorized({ ...request, policies: { staticPolicies: policies } });
  if (answer.type === 'failure') return { allow: false, reasons: answer.errors.map((e) => e.message) };
  const { decision, diagnostics } = answer.response;
  if (diagnostics.errors.length > 0)
    return { allow: false, reasons: diagnostics.errors.map((e) => `${e.policyId}: ${e.error.message}`) };
  if (decision === 'allow') return { allow: true };
  const reasons = diagnostics.reason.length
    ? diagnostics.reason.map((id) => `forbid: ${id}`)
    : ['no permit applies'];
  return { allow: false, reasons };
}
