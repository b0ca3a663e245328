// The egress routes of an agent's credential proxy (issue 19). The bundle
// (contract A) is read with the agent's Gateway key every 30 s, and by the
// agent's sharers for the UI; it never holds a secret. The credential
// material and the agent's JWT-SVID (contract C) go only to a Gateway key
// bound to this very agent, never cached, never in an audit record.
import { issueJwtSvid } from '../../base/identity/jwt-svid.ts';
import { HttpError, conflict, unprocessable } from '../../base/http-error.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { assertGatewayServes } from '../delegations/model.ts';
import { agentIdOf, givenCredential, loadEgressBundle } from '../egress/load.ts';
import {
  assertAgentBoundKey,
  assertNotSuspended,
  audiencePermitted,
  openMaterial,
} from '../egress/secrets.ts';
import { agentCredentials } from '../scoped/agent-cascade.ts';
import { materialContext } from '../scoped/objects.ts';
import { freshMaterial } from '../scoped/oauth-refresh.ts';
import { bodyOf, type RouteCtx, type RouteSpec } from './route.ts';
import { AGENT_SVID, EGRESS_BUNDLE, EGRESS_CREDENTIAL } from './egress-responses.ts';

/** How long an SVID for a client assertion lives: one token request. */
const SVID_TTL_SECONDS = 300;
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

async function readBundle(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  assertGatewayServes(rc.principal, agentIdOf(agent));
  return loadEgressBundle(rc.deps, agent);
}

async function readCredential(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  const agentId = agentIdOf(agent);
  assertAgentBoundKey(rc.principal, agentId);
  assertNotSuspended(agent);
  const name = rc.params.credential ?? '';
  rc.audit.details = { credential: name };
  const given = givenCredential(await agentCredentials(rc.deps.writer, agent), name);
  if (!given)
    throw new HttpError(
      404,
      `credential ${name} is not available to agent ${agentId}`,
      'credential_not_available',
    );
  const { metadata, spec } = given.credential;
  const namespace = metadata.namespace ?? '';
  const stored = spec.secretRef
    ? await rc.deps.writer.readSecretValue(namespace, spec.secretRef.name, spec.secretRef.key)
    : undefined;
  if (stored === undefined || !spec.secretRef)
    throw conflict(`credential ${name} has no material yet`, 'credential_pending');
  const value = openMaterial(
    await rc.deps.keyring(),
    stored,
    materialContext(namespace, spec.secretRef.name),
  );
  rc.audit.details = { credential: name, service: spec.service };
  // An OAuth token about to expire is refreshed first (decision 280).
  const fresh = await freshMaterial(rc.deps, given.credential, value);
  return { credential: name, service: spec.service, type: spec.type, value: fresh };
}

async function issueSvid(rc: RouteCtx): Promise<unknown> {
  const agent = rc.agent as PlatformAgent;
  assertAgentBoundKey(rc.principal, agentIdOf(agent));
  assertNotSuspended(agent);
  const { audience } = bodyOf<{ audience: string }>(rc);
  rc.audit.details = { audience };
  const { rules } = await loadEgressBundle(rc.deps, agent);
  if (!audiencePermitted(audience, rc.deps.oauthIssuer, rules))
    throw unprocessable(
      'the audience is neither the platform’s authorization server nor a token endpoint of one of the agent’s client_credentials rules',
      'audience_not_permitted',
    );
  const spiffeId = agent.status?.spiffeId;
  if (!spiffeId) throw conflict('the agent has no SPIFFE ID yet', 'identity_pending');
  const key = await rc.deps.signingKey();
  if (!key)
    throw new HttpError(503, 'the trust-domain signing key is not available yet', 'signing_key_unavailable');
  const now = Math.floor(rc.deps.now() / 1000);
  const token = await issueJwtSvid({ spiffeId, audience, ttlSeconds: SVID_TTL_SECONDS, key, now });
  return { token, expires_at: new Date((now + SVID_TTL_SECONDS) * 1000).toISOString() };
}

const SVID_BODY = {
  type: 'object',
  required: ['audience'],
  additionalProperties: false,
  properties: { audience: { type: 'string', minLength: 1, maxLength: 2048 } },
};

export const EGRESS_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/egress',
    action: 'agent.egress.read',
    summary: "The agent's egress bundle: its credential routing rules, MCP servers and Cedar policy",
    success: 200,
    response: EGRESS_BUNDLE,
    handle: readBundle,
  },
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/egress/credentials/{credential}',
    action: 'agent.egress.credential',
    summary: "A credential's material for the agent's credential proxy (its own Gateway key only)",
    success: 200,
    response: EGRESS_CREDENTIAL,
    headers: NO_STORE,
    handle: readCredential,
  },
  {
    method: 'POST',
    path: '/v1/agents/{agent_id}/svid',
    action: 'agent.svid',
    summary: 'A JWT-SVID of the agent for a client assertion (its own Gateway key only)',
    success: 200,
    response: AGENT_SVID,
    body: SVID_BODY,
    headers: NO_STORE,
    handle: issueSvid,
  },
];
