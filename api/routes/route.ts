// What a route is: method, path (OpenAPI style), the policy action it needs,
// the schema of its body, its success status and a thin handler. The same
// list drives the router, the OpenAPI document and the route × role matrix.
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorRegistration,
  ConsentRequest,
  DelegationGrant,
  ModelRegistration,
} from '../../crds/generated/types.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import type { IntakeDeps } from '../../evidence/intake.ts';
import type { AccessStore } from '../../accesses/store.ts';
import type { ConsoleLog } from '../../contract/console.ts';
import type { ConsoleHub } from '../console/hub.ts';
import type { PodUsageSource } from '../console/tree-usage.ts';
import type { PolicyServiceDeps } from '../../policy/service.ts';
import type { Logger } from '../../base/log.ts';
import type { PlatformAgent } from '../agents/model.ts';
import type { AuditLog } from '../audit/log.ts';
import type { ApiKeyStore } from '../auth/key-store.ts';
import type { Principal } from '../auth/principal.ts';
import type { OidcVerifier } from '../auth/oidc.ts';
import type { SubjectTokenLedger } from '../oauth/subject-ledger.ts';
import type { Action } from '../policy/roles.ts';
import type { AgentIndex, CacheLike } from '../store/cache.ts';
import type { ClusterWriter } from '../store/cluster.ts';
import type { WorkflowStore } from '../store/workflows.ts';
import type { RegistryCredentials } from '../../base/registry-credentials.ts';
import type { SigningKey, TrustBundle } from '../../base/identity/trust-keys.ts';
import type { KeyringAccess } from '../scoped/keyring.ts';
import type { ProviderSource } from '../scoped/oauth-providers.ts';
import type { SessionStore } from '../scoped/oauth-sessions.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiDeps {
  agents: AgentIndex;
  approvals: CacheLike<ApprovalRequest>;
  auditors: CacheLike<AuditorRegistration>;
  models: CacheLike<ModelRegistration>;
  /** The app catalog's entries (cluster-scoped) and the installs of apps on agents. */
  catalog: CacheLike<AppCatalogEntry>;
  installedApps: CacheLike<AgentInstalledApp>;
  /** OBO delegation: ConsentRequests and DelegationGrants beside their agents. */
  consents: CacheLike<ConsentRequest>;
  grants: CacheLike<DelegationGrant>;
  /** A pending consent lapses this long after it was asked (the consent controller's PLATFORM_CONSENT_TTL). */
  consentTtlMs: number;
  /** The longest delegation (until the Access Manifest sets one per service). */
  maxDelegationTtlMs: number;
  writer: ClusterWriter;
  keys: ApiKeyStore;
  audit: AuditLog;
  log: Logger;
  now: () => number;
  /** How long an ApprovalRequest waits for an Owner. */
  approvalTtlMs: number;
  /** Evidence intake: the store, attester keys, the passport sink, registrations; `maxBytes` → 413. */
  evidence: IntakeDeps & { maxBytes: number };
  /** The data-access log: what the agent's credential proxy recorded (`/v1/agents/{id}/accesses`). */
  accesses: AccessStore;
  /** The console's event log (`/v1/agents/{id}/console/*`): shared by replicas on PostgreSQL. */
  console: ConsoleLog;
  /** The console's fan-out: open streams, and where sources publish events (into `console`). */
  consoleHub: ConsoleHub;
  /** The agent's pod and its CPU and memory use, for the console's subagent tree. */
  podUsage: PodUsageSource;
  /** AuditorPolicies and the vocabularies their rules compile against. */
  policy: PolicyServiceDeps;
  /** Workflow resources, at the apiserver. */
  workflows: WorkflowStore;
  /** What the vocabulary fetch of a registration presents (its client certificate, API keys); none when absent. */
  registryCredentials?: RegistryCredentials;
  /** The trust domain's public keys (api/identity/trust-bundle.ts). */
  trustBundle: () => Promise<TrustBundle>;
  /** The trust-domain key that signs now (access tokens); undefined before the first key exists. */
  signingKey: () => Promise<SigningKey | undefined>;
  /** The OAuth authorization server's issuer URL, an origin (api/settings.ts `oauthIssuerOf`). */
  oauthIssuer: string;
  /** The OIDC issuer's token check, for token-exchange subject tokens (decision 142); none without an issuer. */
  userTokens?: OidcVerifier;
  /** Which agent exchanged each user token: another agent's use of it is a replay (decision 142). */
  exchangedSubjects: SubjectTokenLedger;
  /** The keyring that envelope-encrypts scoped-credential material (the operator's); 503 while unavailable. */
  keyring: KeyringAccess;
  /** OAuth connect of scoped credentials: the operator's providers, and where pending sessions live. */
  oauthConnect: { providers: ProviderSource; sessions: SessionStore };
}

export interface AuditNote {
  resource: string;
  namespace?: string;
  details?: Record<string, unknown>;
  /** Who a public route found the request acting for (the human of a token exchange); else the caller. */
  principal?: Pick<Principal, 'subject' | 'method'>;
}

export interface RouteCtx<B = unknown> {
  /** Anonymous callers of public routes get subject `anonymous`. */
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, string>;
  body: B;
  deps: ApiDeps;
  /** Set for agent-scoped routes: from the cache for reads, fresh from the apiserver for writes. */
  agent?: PlatformAgent;
  /** Set for approval routes. */
  approval?: ApprovalRequest;
  audit: AuditNote;
  /** Overrides the route's success status (e.g. 200 instead of 201 for an idempotent create). */
  status?: number;
  /** Size of the request body as received, in bytes (0 without one). */
  bodyBytes: number;
  /** The Authorization header as sent ('' without one): OAuth client authentication reads it. */
  authorization: string;
  /** A request header as sent ('' without it). */
  header(name: string): string;
  /** The client's connection: a streaming route closes it (a client dropped for not reading). */
  connection: { destroy(): void };
}

export interface RouteSpec {
  method: Method;
  path: string;
  /** `public`: no credential needed (the registry check, called by the admission webhook). */
  action: Action | 'public';
  summary: string;
  success: number;
  /** The success body's schema (none for 204), for the OpenAPI document: see responses.ts. */
  response?: JSONSchema;
  /** Other success answers a handler may give (`rc.status`), by status, with their body's schema. */
  otherSuccess?: Record<number, JSONSchema>;
  body?: JSONSchema;
  /** The body may be left out entirely. */
  optionalBody?: boolean;
  /**
   * `text/event-stream`: the handler returns a Readable of SSE text that the
   * answer streams until either side closes (the console stream); `text/html`:
   * the handler returns a page (the OAuth callback).
   */
  produces?: 'text/event-stream' | 'text/html';
  /** With `produces`: the schema of one message of the stream (OpenAPI 3.2 `itemSchema`). */
  streamItem?: JSONSchema;
  /** Documented query parameters. */
  query?: Record<string, string>;
  /** A tighter body limit than the API's (413 above it); a function when it is configurable. */
  maxBodyBytes?: (deps: ApiDeps) => number;
  /**
   * `signed`: the body is a signed document whose own validator checks every
   * identifier in it, and whose free text is kept exactly as signed (never in
   * a resource); the generic character check would refuse it, and lose it,
   * over a character in an auditor's message (decision 91).
   */
  bodyHygiene?: 'signed' | 'document';
  /**
   * The body may also be a text document (`text/yaml`, `application/yaml`,
   * `text/plain`), read as `{text}`; `body` is the schema of the JSON form.
   * With `bodyHygiene: 'document'` the handler checks the text's characters
   * (free text: a YAML file holds line breaks) and what it makes of it.
   */
  textBody?: boolean;
  /** The body is `application/x-www-form-urlencoded` (OAuth endpoints); `body` is the schema of its parameters. */
  form?: boolean;
  /**
   * `oauth`: errors answer in the RFC 6749 §5.2 shape `{error, error_description}`
   * (api/oauth/errors.ts), not `{detail, code}`.
   */
  errorShape?: 'oauth';
  /** Headers set on every answer of the route, errors included (e.g. `cache-control: no-store`). */
  headers?: Record<string, string>;
  /** A public route whose every use is still audited, under this action (the token exchange). */
  auditAction?: string;
  handle(rc: RouteCtx): Promise<unknown>;
}

/** Typed access to a validated body. */
export const bodyOf = <B>(rc: RouteCtx): B => rc.body as B;

export const koaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');
