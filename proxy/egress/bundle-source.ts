// The agent's egress bundle (rules, MCP servers, Cedar policy), read from the
// Verifier with the agent's Gateway key at start and every refresh interval,
// the way the Access Manifest is (decision 153): until one read succeeds
// nothing is known and everything is refused; a failed later read keeps the
// last bundle. Wire format: snake_case (`GET /v1/agents/{agent_id}/egress`).
import { callJson } from '../../base/http-client.ts';
import type { Logger } from '../../base/log.ts';
import { Refreshed } from '../refreshed.ts';
import type { EgressBundle, EgressRule, InjectionMethod, McpServerRef } from '../../contract/egress.ts';

export type BundleFetch = () => Promise<EgressBundle>;

const METHODS: readonly InjectionMethod[] = ['sidecar', 'client_credentials', 'token_exchange'];

const optString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The optional string fields of a rule, wire name → field name; empty strings are absent. */
const OPTIONAL_FIELDS = [
  ['credential_ref', 'credentialRef'],
  ['token_endpoint', 'tokenEndpoint'],
  ['client_id', 'clientId'],
  ['audience', 'audience'],
] as const;

function methodOf(r: Record<string, unknown>): InjectionMethod {
  const method = r.injection_method ?? 'sidecar';
  if (!METHODS.includes(method as InjectionMethod))
    throw new Error(`unknown injection_method ${String(method)}`);
  return method as InjectionMethod;
}

function withTtl(rule: EgressRule, ttl: unknown): EgressRule {
  return typeof ttl === 'number' && ttl > 0 ? { ...rule, ttlSeconds: ttl } : rule;
}

function parseRule(raw: unknown): EgressRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  const destination = optString(r.destination)?.toLowerCase();
  if (!destination) throw new Error('a rule without destination');
  const rule: EgressRule = {
    destination,
    injectionMethod: methodOf(r),
    approval: r.approval === 'owner' ? 'owner' : 'auto',
    service: optString(r.service) ?? destination.replace(/^\*\./, ''),
    source: optString(r.source) ?? 'agent',
  };
  for (const [wire, field] of OPTIONAL_FIELDS) {
    const value = optString(r[wire]);
    if (value) rule[field] = value;
  }
  return withTtl(rule, r.ttl_seconds);
}

/** Parses the Verifier's answer; throws on anything it cannot use as a whole. */
export function parseBundle(body: unknown): EgressBundle {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.cedar !== 'string') throw new Error('the egress bundle has no cedar policy');
  const rules = Array.isArray(b.rules) ? b.rules.map(parseRule) : [];
  const servers = Array.isArray(b.mcp_servers) ? b.mcp_servers : [];
  const mcpServers: McpServerRef[] = servers
    .map((s) => s as Record<string, unknown>)
    .filter((s) => typeof s.name === 'string' && typeof s.url === 'string')
    .map((s) => ({ name: s.name as string, url: s.url as string }));
  return {
    agentId: typeof b.agent_id === 'string' ? b.agent_id : '',
    version: typeof b.version === 'string' ? b.version : '',
    rules,
    mcpServers,
    cedar: b.cedar,
  };
}

export function verifierBundleFetch(o: {
  verifierUrl: string;
  agentId: string;
  apiKey: string | undefined;
  timeoutMs?: number;
}): BundleFetch {
  const url = `${o.verifierUrl.replace(/\/$/, '')}/v1/agents/${encodeURIComponent(o.agentId)}/egress`;
  const headers: Record<string, string> = o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {};
  return async () => {
    const res = await callJson(url, { headers, timeoutMs: o.timeoutMs ?? 5000, maxBytes: 4 << 20 });
    if (res.status !== 200) throw new Error(`Verifier answered ${res.status} for the egress bundle`);
    return parseBundle(JSON.parse(res.body.toString('utf8')));
  };
}

export interface BundleSourceOptions {
  fetch: BundleFetch;
  log: Logger;
  onRefresh?: (ok: boolean) => void;
  /** Called after a read that changed the bundle's version. */
  onChange?: (bundle: EgressBundle) => void;
}

/** The agent's egress bundle as last read (see proxy/refreshed.ts). */
export class BundleSource extends Refreshed<EgressBundle> {
  constructor(o: BundleSourceOptions) {
    super({
      read: o.fetch,
      what: 'egress bundle',
      log: o.log,
      ...(o.onRefresh ? { onRefresh: o.onRefresh } : {}),
      onRead: (next, previous) => {
        if (next.version === '' || next.version !== previous?.version) o.onChange?.(next);
      },
    });
  }
}
