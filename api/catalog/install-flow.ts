// The MCP tool install flow, steps 2 to 4 (spec "MCP tool install flow";
// step 1, the blocked tool, is refused by the route before this runs). Its
// outcome is written with the install in one write, so a failing step leaves
// no rule behind: every failure throws a 4xx/5xx HttpError before anything is
// written (decisions 155, 157).
//   2. an `enforce` ScopedCredential for the app's service at the agent's org
//      or workspace tier: a sidecar rule to it, no registration;
//   3. RFC 9728 metadata at the server: its authorization server's RFC 8414
//      metadata, RFC 7591 registration with the agent's JWT-SVID, a
//      client_credentials rule, the metadata kept as mcp_metadata;
//   4. no metadata: connect_required (OAuth with PKCE, or an API key), no rule.
import { HttpError } from '../../base/http-error.ts';
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import type { SigningKey } from '../../base/identity/trust-keys.ts';
import type { AgentInstalledApp, PlatformAgent, ScopedCredential } from '../../crds/generated/types.ts';
import { formatAgentId } from '../../contract/agent-id.ts';
import { JWKS_PATH } from '../oauth/metadata.ts';
import { appService, clientCredentialsRule, enforcedRule, type RoutingRule } from './install-routing.ts';
import { enforcedCredential, resolveCredentials } from '../scoped/credential-cascade.ts';
import {
  authorizationServerUrl,
  MetadataProblem,
  parseAuthorizationServer,
  parseProtectedResource,
  protectedResourceUrls,
  type AuthorizationServer,
  type ProtectedResource,
} from './mcp-discovery.ts';
import { parseRegistration, registrationRequest } from './mcp-registration.ts';
import { OutboundError, type JsonAnswer } from './outbound.ts';
import { tierNamespaces, type ToolTiers } from './tool-cascade.ts';

type InstallSpec = AgentInstalledApp['spec'];

export interface InstallAuth {
  auth: NonNullable<InstallSpec['auth']>;
  credentialRouting: RoutingRule[];
  mcpMetadata?: NonNullable<InstallSpec['mcpMetadata']>;
  /** Issued by an authorization server that ignored `private_key_jwt`; stored encrypted, never shown. */
  clientSecret?: string;
}

export interface InstallFlowDeps {
  tiers: ToolTiers;
  listCredentials: (namespace: string) => Promise<ScopedCredential[]>;
  signingKey: () => Promise<SigningKey | undefined>;
  /** The platform's OAuth issuer: its JWKS verifies the agent's SVIDs. */
  platformIssuer: string;
  requestJson: (url: string, body?: unknown) => Promise<JsonAnswer>;
  now: () => number;
}

/** How long the SVID sent as software statement lives: one registration. */
const REGISTRATION_SVID_TTL_SECONDS = 300;

export const CONNECT_REQUIRED: InstallAuth = {
  auth: { method: 'connect_required', connectOptions: ['oauth_pkce', 'api_key'] },
  credentialRouting: [],
};

/** An outbound failure as the install's answer: 504 for a deadline, 502 otherwise. */
function upstream(what: string, err: unknown): unknown {
  if (err instanceof MetadataProblem) return new HttpError(502, err.message, err.code);
  if (!(err instanceof OutboundError)) return err;
  const status = err.reason === 'timeout' ? 504 : 502;
  return new HttpError(status, `${what}: ${err.message}`, `upstream_${err.reason}`);
}

async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw upstream(what, err);
  }
}

async function enforcedStep(deps: InstallFlowDeps, service: string, serverUrl: string) {
  const lists = await Promise.all(tierNamespaces(deps.tiers).map((ns) => deps.listCredentials(ns)));
  const enforced = enforcedCredential(resolveCredentials(lists.flat(), deps.tiers), service);
  if (!enforced) return undefined;
  const name = enforced.credential.metadata.name ?? '';
  return {
    auth: {
      method: 'enforced_credential',
      credentialRef: name,
      credentialScope: enforced.credential.spec.scope,
    },
    credentialRouting: [enforcedRule(serverUrl, name)],
  } satisfies InstallAuth;
}

/** The server's RFC 9728 document, or undefined when none of its well-known URLs has one (404/410). */
async function protectedResource(deps: InstallFlowDeps, serverUrl: string) {
  for (const url of protectedResourceUrls(serverUrl)) {
    const answer = await step(`fetching ${url}`, () => deps.requestJson(url));
    if (answer.status === 404 || answer.status === 410) continue;
    if (answer.status !== 200)
      throw new HttpError(502, `${url} answered ${answer.status}`, 'mcp_metadata_invalid');
    return step(url, () => Promise.resolve(parseProtectedResource(answer.body, serverUrl)));
  }
  return undefined;
}

async function authorizationServer(deps: InstallFlowDeps, issuer: string): Promise<AuthorizationServer> {
  const url = authorizationServerUrl(issuer);
  const answer = await step(`fetching ${url}`, () => deps.requestJson(url));
  if (answer.status !== 200)
    throw new HttpError(502, `${url} answered ${answer.status}`, 'as_metadata_invalid');
  return step(url, () => Promise.resolve(parseAuthorizationServer(answer.body, issuer)));
}

async function registrationSvid(deps: InstallFlowDeps, agent: PlatformAgent, audience: string) {
  const spiffeId = agent.status?.spiffeId;
  if (!spiffeId)
    throw new HttpError(
      409,
      'the agent has no SPIFFE ID yet: install again once its identity is issued',
      'identity_pending',
    );
  const key = await deps.signingKey();
  if (!key)
    throw new HttpError(503, 'the trust-domain signing key is not available yet', 'signing_key_unavailable');
  const svid = await issueJwtSvid({
    spiffeId,
    audience,
    ttlSeconds: REGISTRATION_SVID_TTL_SECONDS,
    key,
    now: Math.floor(deps.now() / 1000),
  });
  return { svid, alg: key.alg };
}

async function register(
  deps: InstallFlowDeps,
  agent: PlatformAgent,
  as: AuthorizationServer,
  pr: ProtectedResource,
) {
  const { svid, alg } = await registrationSvid(deps, agent, as.issuer);
  const body = registrationRequest({
    agentId: formatAgentId({ namespace: agent.metadata.namespace ?? '', name: agent.metadata.name ?? '' }),
    svid,
    alg,
    platformJwksUri: `${deps.platformIssuer}${JWKS_PATH}`,
    scopes: pr.scopes,
  });
  const answer = await step(`registering at ${as.registrationEndpoint}`, () =>
    deps.requestJson(as.registrationEndpoint, body),
  );
  const outcome = parseRegistration(answer.status, answer.body);
  if (!outcome.ok) throw new HttpError(502, outcome.reason, 'client_registration_failed');
  return outcome.registration;
}

async function registeredStep(
  deps: InstallFlowDeps,
  agent: PlatformAgent,
  serverUrl: string,
): Promise<InstallAuth | undefined> {
  const pr = await protectedResource(deps, serverUrl);
  if (!pr) return undefined;
  const as = await authorizationServer(deps, pr.authorizationServers[0] ?? '');
  const registration = await register(deps, agent, as, pr);
  return {
    auth: {
      method: 'client_credentials',
      clientId: registration.clientId,
      tokenEndpoint: as.tokenEndpoint,
      registeredTime: new Date(deps.now()).toISOString(),
    },
    credentialRouting: [clientCredentialsRule(serverUrl)],
    mcpMetadata: {
      resource: pr.resource,
      authorizationServers: pr.authorizationServers,
      scopes: pr.scopes,
      resourceIndicators: [pr.resource],
      issuer: as.issuer,
      tokenEndpoint: as.tokenEndpoint,
      registrationEndpoint: as.registrationEndpoint,
    },
    ...(registration.clientSecret ? { clientSecret: registration.clientSecret } : {}),
  };
}

/** Steps 2–4 for an MCP server app at `serverUrl`; throws an HttpError, having written nothing, when a step fails. */
export async function installAuth(
  deps: InstallFlowDeps,
  agent: PlatformAgent,
  app: { serverUrl: string; service?: string },
): Promise<InstallAuth> {
  const service = appService(app) ?? '';
  return (
    (await enforcedStep(deps, service, app.serverUrl)) ??
    (await registeredStep(deps, agent, app.serverUrl)) ??
    CONNECT_REQUIRED
  );
}
