// The egress bundle of one agent (issue 19, contract A), pure: its credential
// routing rules merged from the agent spec, its tools and its app installs
// (decision 164), each with the service it reaches, the MCP servers it has
// installed, the Cedar policy, and a version the proxy compares to skip an
// unchanged bundle. Never a secret: names of credentials, not their material.
import { createHash } from 'node:crypto';
import { canonicalize } from '../../base/canonical.ts';
import type { AgentInstalledApp, PlatformAgent } from '../../crds/generated/types.ts';
import type { InjectionMethod } from '../../contract/egress.ts';

type RuleSpec = NonNullable<NonNullable<PlatformAgent['spec']['environment']>['credentialRouting']>[number];
type InstallAuth = NonNullable<AgentInstalledApp['spec']['auth']>;

/** One place rules are declared; earlier sources win a destination (decision 164). */
export interface RuleSource {
  /** `agent`, `tool:<name>`, `install:<app>`. */
  source: string;
  rules: readonly RuleSpec[];
  /** Install rules: the app's service and the install's registered client. */
  appService?: string;
  auth?: InstallAuth;
  /** Install rules: the authorization server's issuer (the SVID assertion's audience). */
  issuer?: string;
}

export interface BundleRule {
  destination: string;
  injection_method: InjectionMethod;
  credential_ref: string | null;
  ttl_seconds: number | null;
  approval: 'auto' | 'owner';
  service: string;
  token_endpoint: string | null;
  client_id: string | null;
  audience: string | null;
  source: string;
}

export interface McpServerView {
  name: string;
  url: string;
}

export interface EgressBundleView {
  agent_id: string;
  version: string;
  rules: BundleRule[];
  mcp_servers: McpServerView[];
  cedar: string;
}

type Environment = PlatformAgent['spec']['environment'];

function environmentSources(env: Environment, prefix: string): RuleSource[] {
  return [
    { source: prefix || 'agent', rules: env?.credentialRouting ?? [] },
    ...(env?.tools ?? []).map((t) => ({
      source: `${prefix ? `${prefix}-` : ''}tool:${t.name}`,
      rules: t.credentialRouting ?? [],
    })),
  ];
}

/**
 * The rule sources of an agent in precedence order: its spec, then its tools,
 * then its workspace's environment (rules declared for every agent of the
 * workspace) and that environment's tools; installs come after.
 */
export function agentRuleSources(agent: PlatformAgent, workspaceEnvironment?: Environment): RuleSource[] {
  return [
    ...environmentSources(agent.spec.environment, ''),
    ...(workspaceEnvironment ? environmentSources(workspaceEnvironment, 'workspace') : []),
  ];
}

/** `30m` / `2h` in seconds; undefined for anything else (the CRD admits only these). */
export function ttlSeconds(ttl: string | undefined): number | undefined {
  const m = /^([1-9][0-9]*)([mh])$/.exec(ttl ?? '');
  return m ? Number(m[1]) * (m[2] === 'h' ? 3600 : 60) : undefined;
}

/** The host a destination pattern covers, without the leading `*.`. */
export const destinationHost = (destination: string): string =>
  destination.toLowerCase().replace(/^\*\./, '');

/**
 * What a rule reaches: a sidecar rule its credential's service, an install
 * rule its app's service, anything else the destination host.
 */
export function ruleService(
  rule: RuleSpec,
  source: RuleSource,
  credentialService: (name: string) => string | undefined,
): string {
  const method = rule.injectionMethod ?? 'sidecar';
  const fromCredential =
    method === 'sidecar' && rule.credentialRef ? credentialService(rule.credentialRef) : undefined;
  return fromCredential ?? source.appService ?? destinationHost(rule.destination);
}

/** A client_credentials install rule's registered client; all null for the platform's own server. */
function registeredClient(method: InjectionMethod, src: RuleSource) {
  const auth =
    method === 'client_credentials' && src.auth?.method === 'client_credentials' ? src.auth : undefined;
  return {
    token_endpoint: auth?.tokenEndpoint ?? null,
    client_id: auth?.clientId ?? null,
    audience: auth ? (src.issuer ?? null) : null,
  };
}

function bundleRule(
  rule: RuleSpec,
  src: RuleSource,
  credentialService: (name: string) => string | undefined,
): BundleRule {
  const method = rule.injectionMethod ?? 'sidecar';
  return {
    destination: rule.destination.toLowerCase(),
    injection_method: method,
    credential_ref: rule.credentialRef ?? null,
    ttl_seconds: ttlSeconds(rule.ttl) ?? null,
    approval: rule.approval ?? 'auto',
    service: ruleService(rule, src, credentialService),
    ...registeredClient(method, src),
    source: src.source,
  };
}

/** One rule per destination (case-insensitive): the first source that declares it wins. */
export function mergeRules(
  sources: readonly RuleSource[],
  credentialService: (name: string) => string | undefined,
): BundleRule[] {
  const seen = new Set<string>();
  const out: BundleRule[] = [];
  for (const src of sources) {
    for (const rule of src.rules) {
      const key = rule.destination.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(bundleRule(rule, src, credentialService));
    }
  }
  return out;
}

/** The sha256 (hex) of the bundle's canonical JSON without its version. */
export function bundleVersion(bundle: Omit<EgressBundleView, 'version'>): string {
  return createHash('sha256').update(canonicalize(bundle)).digest('hex');
}

export function egressBundle(parts: Omit<EgressBundleView, 'version'>): EgressBundleView {
  const { agent_id, rules, mcp_servers, cedar } = parts;
  const version = bundleVersion({ agent_id, rules, mcp_servers, cedar });
  return { agent_id, version, rules, mcp_servers, cedar };
}
