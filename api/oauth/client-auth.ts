// Client authentication at the token endpoint: a JWT-SVID as the client
// assertion (RFC 7523 `jwt-bearer`, or the SPIFFE draft's `jwt-spiffe`),
// verified against the trust bundle with the token endpoint or the issuer as
// audience; its `sub` names the agent, which must hold that SPIFFE ID in its
// status, have its OAuth client, an Owner, and not be suspended. Client
// secrets are refused for now (decision 137). Every failure is
// `invalid_client` without the assertion in it.
import type { JSONWebKeySet } from 'jose';
import { parseAgentId } from '../../contract/agent-id.ts';
import { verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { invalidClient, invalidRequest } from './errors.ts';
import { ASSERTION_JWT_BEARER, ASSERTION_JWT_SPIFFE, tokenEndpointOf } from './metadata.ts';

export interface ClientAssertion {
  assertion: string;
  /** The `client_id` the client sent alongside, if any. */
  clientId?: string;
}

export interface ClientAuthParams {
  client_id?: string;
  client_secret?: string;
  client_assertion?: string;
  client_assertion_type?: string;
}

/** The assertion the request authenticates with; refuses secrets, a missing or unknown assertion type. */
export function clientAssertionOf(form: ClientAuthParams, authorization: string): ClientAssertion {
  if (/^basic(\s|$)/i.test(authorization) || form.client_secret !== undefined) {
    const basic = /^basic/i.test(authorization);
    throw invalidClient(
      'client secrets are not accepted; authenticate with a JWT-SVID client_assertion',
      basic,
    );
  }
  if (form.client_assertion === undefined) {
    throw invalidClient('no client authentication: send client_assertion_type and client_assertion');
  }
  const type = form.client_assertion_type;
  if (type === undefined) throw invalidRequest('client_assertion_type is required with client_assertion');
  if (type !== ASSERTION_JWT_BEARER && type !== ASSERTION_JWT_SPIFFE) {
    throw invalidClient(`client_assertion_type must be ${ASSERTION_JWT_BEARER} or ${ASSERTION_JWT_SPIFFE}`);
  }
  return {
    assertion: form.client_assertion,
    ...(form.client_id !== undefined ? { clientId: form.client_id } : {}),
  };
}

export interface AuthenticatedClient {
  agent: PlatformAgent;
  spiffeId: string;
  clientId: string;
}

export interface ClientAuthContext {
  issuer: string;
  trustDomain: string;
  bundle: JSONWebKeySet;
  /** The agent at `namespace/name` in the informer cache. */
  agentAt: (key: string) => PlatformAgent | undefined;
  /** Seconds since the epoch; the current time by default. */
  now?: number;
}

/** The agent whose SPIFFE ID this is: from the ID's path, held in its status. */
export function agentOf(
  spiffeId: string,
  c: Pick<ClientAuthContext, 'trustDomain' | 'agentAt'>,
): PlatformAgent | undefined {
  const prefix = `spiffe://${c.trustDomain}/agent/`;
  if (!spiffeId.startsWith(prefix)) return undefined;
  const name = parseAgentId(spiffeId.slice(prefix.length));
  const agent = name && c.agentAt(`${name.namespace}/${name.name}`);
  return agent && agent.status?.spiffeId === spiffeId ? agent : undefined;
}

/** Why the agent may not obtain tokens now, or undefined when it may. */
export function clientRefusal(agent: PlatformAgent): string | undefined {
  if (!agent.status?.oauthClientId) return 'the agent has no OAuth client yet';
  if (agent.spec.suspend || agent.status.phase === 'suspended') return 'the agent is suspended';
  if (!(agent.spec.owners ?? []).some((o) => o.role === 'Owner')) return 'the agent has no Owner';
  return undefined;
}

export async function authenticateClient(
  a: ClientAssertion,
  c: ClientAuthContext,
): Promise<AuthenticatedClient> {
  const verified = await verifyJwtSvid(a.assertion, {
    bundle: c.bundle,
    audience: [tokenEndpointOf(c.issuer), c.issuer],
    trustDomain: c.trustDomain,
    ...(c.now !== undefined ? { now: c.now } : {}),
  });
  if (!verified.ok) throw invalidClient(`the client assertion is not a valid JWT-SVID: ${verified.reason}`);
  const agent = agentOf(verified.spiffeId, c);
  if (!agent) throw invalidClient('no agent holds the SPIFFE ID of the client assertion');
  const refusal = clientRefusal(agent);
  if (refusal) throw invalidClient(refusal);
  const clientId = agent.status!.oauthClientId!;
  if (a.clientId !== undefined && a.clientId !== clientId) {
    throw invalidClient('client_id is not the OAuth client of the agent the assertion names');
  }
  return { agent, spiffeId: verified.spiffeId, clientId };
}
