// The seams of the credential proxy's request path (issue 19), shared by the
// HTTP pipeline, the MCP gateway and the injection clients. Each step is an
// interface so the pipeline stays a thin shell: access (a Cedar decision from
// the Verifier's egress bundle), approval (an Owner's decision on a held
// high-risk call), injection (the credential the agent never sees) and the
// data-access record.

export type InjectionMethod = 'sidecar' | 'client_credentials' | 'token_exchange';

/** One credential routing rule as the Verifier serves it (`GET /v1/agents/{id}/egress`). */
export interface EgressRule {
  /** `api.example.com`, or `*.example.com` (subdomains only). */
  destination: string;
  injectionMethod: InjectionMethod;
  credentialRef?: string;
  ttlSeconds?: number;
  approval: 'auto' | 'owner';
  service: string;
  /** client_credentials: the token endpoint (absent: the platform's own authorization server). */
  tokenEndpoint?: string;
  clientId?: string;
  /** client_credentials: the audience of the SVID assertion (absent: the token endpoint). */
  audience?: string;
  source: string;
}

export interface McpServerRef {
  name: string;
  url: string;
}

export interface EgressBundle {
  agentId: string;
  version: string;
  rules: EgressRule[];
  mcpServers: McpServerRef[];
  /** The egress Cedar policy set (the Verifier generates it from settings and grants). */
  cedar: string;
}

/** What a call does, for Cedar and approvals. `connect`: an opaque tunnel. */
export type EgressAction = 'read' | 'write' | 'merge' | 'send' | 'delete' | 'connect';
export const HIGH_RISK_ACTIONS: readonly EgressAction[] = ['write', 'merge', 'send', 'delete'];

export interface AccessQuestion {
  host: string;
  port: number;
  action: EgressAction;
  /** Upper-case HTTP method, `CONNECT`, or `tools/call` for the MCP gateway. */
  method: string;
  /** The user on whose behalf the call is made; empty when the agent acts as itself. */
  user: string;
  /** The matched rule (undefined: no rule matches the destination). */
  rule?: EgressRule;
}

export type AccessAnswer = { allow: true } | { allow: false; reason: string };

/** Access: may this agent make this call at all (an agent never reaches more than its owners). */
export interface EgressAccess {
  decide(q: AccessQuestion): AccessAnswer | Promise<AccessAnswer>;
  /** True when the call needs an Owner's approval (high-risk, the manifest's approvalRequired, a rule's `approval: owner`). */
  needsApproval(q: AccessQuestion): boolean;
}

export interface HeldCall {
  action: EgressAction;
  /** `METHOD https://host:port/path`, without query string: shown to the approver. */
  target: string;
  description: string;
  details: Record<string, unknown>;
}

export type ApprovalOutcome =
  | { outcome: 'approved'; approvalId: string }
  | { outcome: 'denied' | 'expired' | 'timeout' | 'error'; approvalId?: string; reason: string };

/** Approval: creates an ApprovalRequest for a held call and waits for its decision. */
export interface ApprovalGate {
  hold(call: HeldCall, signal: AbortSignal): Promise<ApprovalOutcome>;
}

/** The headers to set on a routed request, and those the agent may have set that must go. */
export interface Injection {
  set: Record<string, string>;
  strip: readonly string[];
}

export interface InjectionContext {
  /** The user's own token (OBO), taken from the agent's request and removed before forwarding. */
  subjectToken?: string;
  signal: AbortSignal;
}

/** Injection: the credential for a routed call; `refresh` after a 401 from the target. */
export interface Injector {
  inject(rule: EgressRule, ctx: InjectionContext): Promise<Injection>;
  /** Forgets any cached credential for this rule (and user), so the next inject fetches anew. */
  invalidate(rule: EgressRule, ctx: InjectionContext): void;
}

export class InjectionError extends Error {
  /** `status`: what the agent gets (403 no grant / not permitted, 502 the token source failed, 504 timeout). */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One data-access record (Contract D), camelCase here, snake_case on the wire. */
export interface DataAccess {
  at: string;
  kind: 'http' | 'https' | 'tunnel' | 'mcp';
  destination: string;
  method: string;
  action: EgressAction;
  path?: string;
  status?: number;
  outcome: 'forwarded' | 'denied' | 'approval_denied' | 'approval_timeout' | 'upstream_error';
  reason?: string;
  user?: string;
  injectionMethod?: InjectionMethod;
  service?: string;
  approvalId?: string;
  /** The subagent that made the call (`x-platform-subagent`), when the agent runtime named one. */
  subagent?: string;
  bytesUp: number;
  bytesDown: number;
  durationMs: number;
}

/** Record: never blocks the call and never throws; batches to the Verifier. */
export interface AccessSink {
  record(access: DataAccess): void;
}
