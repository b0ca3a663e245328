// The route × role matrix: every route of the route table, called over HTTP
// by every persona (org admin, workspace admin, Owner, Editor, Viewer, a
// stranger, and no credential). The expected table below is written by hand
// from the spec's "Who may do what"; the test fails when a route has no row.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../api/routes/index.ts';
import { k8s } from '../../base/kube.ts';
import { createAttestationAgent } from '../../attestation/agent.ts';
import { signEvidence } from '../../evidence/sign.ts';
import { sampleEvidence } from '../process/fixtures/evidence.ts';
import { defaultOwners, PERSONAS, SUBJECTS, useApi, type Persona } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import { FORM_HEADERS, form, JWT_SPIFFE, makeClient, svid, trustKey } from './oauth-client.ts';
import { useOidcIssuer } from './oidc-issuer.ts';

/** `gateway`: a Gateway's API key (role gateway), which holds no other role. */
type Who = Persona | 'gateway' | 'anonymous';
const WHO: readonly Who[] = [...PERSONAS, 'gateway', 'anonymous'];
const ADMINS: Who[] = ['org_admin', 'workspace_admin'];
const SHARED: Who[] = [...ADMINS, 'owner', 'editor', 'viewer'];
const CHANGERS: Who[] = [...ADMINS, 'owner', 'editor'];
const ANY: Who[] = [...PERSONAS];

const EXPECTED: Record<string, Who[]> = {
  'GET /v1/agents/stale': ANY,
  'GET /v1/agents': ANY,
  'POST /v1/agents': ADMINS,
  'GET /v1/agents/{agent_id}': SHARED,
  'PATCH /v1/agents/{agent_id}': CHANGERS,
  'DELETE /v1/agents/{agent_id}': CHANGERS,
  'POST /v1/agents/{agent_id}/suspend': CHANGERS,
  'POST /v1/agents/{agent_id}/reactivate': [...ADMINS, 'owner'],
  'GET /v1/agents/{agent_id}/access-review': CHANGERS,
  'GET /v1/agents/{agent_id}/passport': SHARED,
  'GET /v1/agents/{agent_id}/console/subagents': SHARED,
  'GET /v1/agents/{agent_id}/console/stream': SHARED,
  'GET /v1/agents/{agent_id}/console/events': SHARED,
  'GET /v1/agents/{agent_id}/shares': SHARED,
  'POST /v1/agents/{agent_id}/shares': CHANGERS,
  'DELETE /v1/agents/{agent_id}/shares/{subject}': CHANGERS,
  // The agent's credential proxy holds calls for approval with its Gateway key.
  'POST /v1/agents/{agent_id}/actions': [...CHANGERS, 'gateway'],
  'GET /v1/approvals': ANY,
  'GET /v1/approvals/{id}': [...SHARED, 'gateway'],
  'POST /v1/approvals/{id}/approve': ['owner'],
  'POST /v1/approvals/{id}/deny': ['owner'],
  'GET /v1/notifications/count': ANY,
  'POST /v1/api-keys': ANY,
  'GET /v1/api-keys': ANY,
  'DELETE /v1/api-keys/{id}': ANY,
  'GET /v1/whoami': ANY,
  'GET /v1/scopes': ANY,
  'GET /v1/delegations/pending': ANY,
  'GET /v1/delegations': ANY,
  'GET /v1/audit': ADMINS,
  'GET /v1/audit/verify': ['org_admin'],
  'GET /registry/check': [...ANY, 'gateway', 'anonymous'],
  'POST /v1/registry/notarizations': ['org_admin'],
  'DELETE /v1/registry/notarizations/{digest}': ['org_admin'],
  'POST /v1/evidence': ['gateway'],
  'DELETE /v1/attesters/{attester_id}/keys/{key_id}': ['org_admin'],
  'GET /v1/agents/{agent_id}/evidence': SHARED,
  'GET /v1/policies': ADMINS,
  'POST /v1/policies': ADMINS,
  'GET /v1/policies/{id}': ADMINS,
  'PUT /v1/policies/{id}': ADMINS,
  'DELETE /v1/policies/{id}': ADMINS,
  'GET /v1/policies/{id}/effective': [...ADMINS, 'gateway'],
  'POST /api/v1/workspaces/{id}/apply-preset': ADMINS,
  'POST /v1/auditors/register': ['org_admin', 'gateway'],
  'GET /v1/auditors': ANY,
  'GET /v1/auditors/schema/{id}': ANY,
  'GET /v1/models': ANY,
  'POST /v1/models/register': ['org_admin'],
  'GET /v1/app-catalog': ANY,
  'GET /v1/app-catalog/{app_id}': ANY,
  'POST /v1/app-catalog/agents/{agent_id}/install': CHANGERS,
  'DELETE /v1/app-catalog/agents/{agent_id}/uninstall': CHANGERS,
  'GET /v1/app-catalog/agents/{agent_id}/installed': SHARED,
  // Auditor settings at the agent tier (the org and workspace tiers: api-settings.test.ts).
  'GET /v1/auditors/settings': SHARED,
  'PUT /v1/auditors/settings': CHANGERS,
  'DELETE /v1/auditors/settings': CHANGERS,
  'POST /api/v1/workflows': ADMINS,
  'GET /api/v1/workflows': ANY,
  'GET /api/v1/workflows/{id}': ADMINS,
  'PUT /api/v1/workflows/{id}': ADMINS,
  'DELETE /api/v1/workflows/{id}': ADMINS,
  'POST /api/v1/workflows/{id}/deploy': ADMINS,
  'POST /api/v1/workflows/{id}/stop': ADMINS,
  'GET /api/v1/workflows/{id}/passport': ADMINS,
  'GET /v1/agents/{agent_id}/delegations/pending': SHARED,
  'POST /v1/agents/{agent_id}/delegations/pending': [...CHANGERS, 'gateway'],
  'POST /v1/agents/{agent_id}/delegations/pending/{consent_id}/deny': ['owner', 'editor', 'viewer'],
  'GET /v1/agents/{agent_id}/delegations': SHARED,
  'POST /v1/agents/{agent_id}/delegations': ['owner', 'editor', 'viewer'],
  'DELETE /v1/agents/{agent_id}/delegations/{grant_id}': ['owner', 'editor', 'viewer'],
  'GET /v1/agents/{agent_id}/access-manifest': [...SHARED, 'gateway'],
  'GET /v1/agents/{agent_id}/egress': [...SHARED, 'gateway'],
  // Only a Gateway key bound to the agent (this matrix's key serves every agent): api-egress.test.ts.
  'GET /v1/agents/{agent_id}/egress/credentials/{credential}': [],
  'POST /v1/agents/{agent_id}/svid': [],
  // Data accesses: the agent's credential proxy records them; its sharers read them.
  'POST /v1/agents/{agent_id}/accesses': ['gateway'],
  'GET /v1/agents/{agent_id}/accesses': SHARED,
  'GET /v1/trust-bundle': [...ANY, 'gateway', 'anonymous'],
  'GET /.well-known/oauth-authorization-server': [...ANY, 'gateway', 'anonymous'],
  'GET /oauth/jwks': [...ANY, 'gateway', 'anonymous'],
  // Public: the client authenticates with its SVID; an API credential alongside is ignored.
  'POST /oauth/token': [...ANY, 'gateway', 'anonymous'],
  // Public: the user's OIDC token and the agent's SVID are the credentials.
  'POST /v1/token-exchange': [...ANY, 'gateway', 'anonymous'],
  // Scoped credentials and tools at the workspace tier (decision 151; the org tier: api-scoped.test.ts).
  'GET /v1/scoped-credentials': ADMINS,
  'POST /v1/scoped-credentials': ADMINS,
  'POST /v1/scoped-credentials/{id}/rotate': ADMINS,
  'DELETE /v1/scoped-credentials/{id}': ADMINS,
  'GET /v1/scoped-credentials/effective': SHARED,
  'GET /v1/scoped-tools': ADMINS,
  'POST /v1/scoped-tools': ADMINS,
  'DELETE /v1/scoped-tools/{id}': ADMINS,
  'GET /v1/scoped-tools/effective': SHARED,
  // OAuth connect (decisions 274-280): the callback's credential is the state it carries.
  'GET /v1/scoped-credentials/oauth/providers': ADMINS,
  'POST /v1/scoped-credentials/oauth/start': ADMINS,
  'POST /v1/scoped-credentials/{id}/reconnect': ADMINS,
  'GET /v1/scoped-credentials/oauth/callback': [...ANY, 'gateway', 'anonymous'],
  'GET /v1/scoped-credentials/oauth/sessions/{state}': ADMINS,
  // Only Owners (spec); a plain GET is 426, the WebSocket itself: console-shell.test.ts.
  'GET /v1/agents/{agent_id}/console/shell': ['owner'],
  // Definition files (decision 283): anyone signed in validates; a new agent is applied by an administrator.
  'POST /v1/definitions/validate': ANY,
  'POST /v1/definitions/apply': ADMINS,
};

const idp = useOidcIssuer();
const ns = useNamespace('api-matrix');
const providersFile = join(mkdtempSync(join(tmpdir(), 'api-matrix-oauth-')), 'providers.yaml');
// A provider start can name (its endpoints are never called by start).
writeFileSync(
  providersFile,
  JSON.stringify({
    providers: [
      {
        service: 'matrix-docs',
        authorization_endpoint: 'https://as.example.com/authorize',
        token_endpoint: 'https://as.example.com/token',
        client_id: 'matrix',
        redirect_uri: 'https://platform.example.com/v1/scoped-credentials/oauth/callback',
      },
      {
        service: 'matrix-mail',
        authorization_endpoint: 'https://as.example.com/authorize',
        token_endpoint: 'https://as.example.com/token',
        client_id: 'matrix',
        redirect_uri: 'https://platform.example.com/v1/scoped-credentials/oauth/callback',
      },
    ],
  }),
);
const fx = useApi(ns, () => ({
  ...idp.env(),
  PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
  PLATFORM_OAUTH_PROVIDERS_FILE: providersFile,
}));
const state = { agent: '', approval: '', digest: '', policy: '', gatewayKey: '', workflow: '', grant: false };
const keyOf = (who: Who): string | undefined =>
  who === 'anonymous' ? undefined : who === 'gateway' ? state.gatewayKey : fx.keys[who];
const wsPolicy = { scope: 'workspace', scopeId: '' };
const EXTRA = 'extra@example.com';

interface Call {
  path: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** A client_credentials request of the matrix agent, with a fresh SVID of its own. */
async function tokenRequest(): Promise<Call> {
  const td = 'platform.local';
  const spiffeId = await makeClient(fx, state.agent, td);
  const assertion = await svid(
    spiffeId,
    `http://platform-verifier.${ns.name}.svc:8000`,
    await trustKey(ns.name, td),
  );
  const params = {
    grant_type: 'client_credentials',
    client_assertion_type: JWT_SPIFFE,
    client_assertion: assertion,
  };
  return { path: '/oauth/token', raw: form(params), headers: FORM_HEADERS };
}

/** A token exchange of the matrix agent's SVID and a fresh user token, under a grant written once. */
async function exchangeRequest(): Promise<Call> {
  const td = 'platform.local';
  const spiffeId = await makeClient(fx, state.agent, td);
  const user = 'xena@matrix';
  if (!state.grant) {
    const now = Date.now();
    const [namespace, agent] = [ns.name, state.agent.slice(ns.name.length + 1)];
    await kubeConfig()
      .makeApiClient(k8s.CustomObjectsApi)
      .createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        plural: 'delegationgrants',
        namespace,
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'DelegationGrant',
          metadata: { name: 'matrix-grant' },
          spec: {
            user,
            agent,
            service: 'slack',
            scopes: ['chat:read'],
            grantedAt: new Date(now).toISOString(),
            expiresAt: new Date(now + 3_600_000).toISOString(),
            consentRef: 'matrix',
          },
        },
      });
    await eventually(() => fx.api.deps.grants.get(`${namespace}/matrix-grant`), 'the grant in the cache');
    state.grant = true;
  }
  const params = {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: await idp.token({ sub: user }),
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    actor_token: await svid(
      spiffeId,
      `http://platform-verifier.${ns.name}.svc:8000`,
      await trustKey(ns.name, td),
    ),
    actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    audience: 'slack',
  };
  return { path: '/v1/token-exchange', raw: form(params), headers: FORM_HEADERS };
}

/** The route families with builders of their own (workflows, delegations). */
function familyRequestFor(route: string, who: Who, n: number): Promise<Call> | undefined {
  if (route.includes('/api/v1/workflows')) return workflowRequestFor(route, n);
  if (route.includes('/delegations')) return delegationRequestFor(route, who);
  if (route === 'POST /oauth/token') return tokenRequest();
  if (route === 'POST /v1/token-exchange') return exchangeRequest();
  if (route.includes('/oauth/sessions/')) return oauthSessionRequest(who);
  if (route.includes('/v1/scoped-')) return scopedRequestFor(route, n);
  if (route.includes('/v1/definitions/')) return Promise.resolve(definitionRequest(route, n));
  return undefined;
}

/** A new agent's definition file: validated by anyone, applied by an administrator (decision 283). */
const definitionRequest = (route: string, n: number): Call => ({
  path: route.slice(5),
  body: {
    namespace: ns.name,
    text: `apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: d-${n}\nspec:\n  owners:\n    - {subject: o@x, role: Owner}\n`,
  },
});

/** Builds the request for one route and persona; may prepare state first (as admin or Owner). */
async function requestFor(route: string, who: Who, n: number): Promise<Call> {
  const elsewhere = familyRequestFor(route, who, n);
  if (elsewhere) return elsewhere;
  const agent = `/v1/agents/${state.agent}`;
  const admin = fx.keys.org_admin;
  switch (route) {
    case 'POST /v1/agents':
      return {
        path: '/v1/agents',
        body: { namespace: ns.name, name: `m-${n}`, spec: { owners: [{ subject: 'o@x', role: 'Owner' }] } },
      };
    case 'PATCH /v1/agents/{agent_id}':
      // Raising or keeping the mode is immediate; lowering it is an approval (api-approvers.test.ts).
      return { path: agent, body: { spec: { auditMode: 'enforce' } } };
    case 'POST /v1/agents/{agent_id}/shares':
      return { path: `${agent}/shares`, body: { subject: EXTRA, role: 'Viewer' } };
    case 'DELETE /v1/agents/{agent_id}/shares/{subject}':
      await fx.call('POST', `${agent}/shares`, { key: admin, body: { subject: EXTRA, role: 'Viewer' } });
      return { path: `${agent}/shares/${encodeURIComponent(EXTRA)}` };
    case 'POST /v1/agents/{agent_id}/actions':
      return { path: `${agent}/actions`, body: { action: 'write', target: `doc://${n}` } };
    case 'POST /v1/approvals/{id}/approve':
    case 'POST /v1/approvals/{id}/deny': {
      // Requested by the Editor: nobody decides their own request.
      const r = await fx.call('POST', `${agent}/actions`, {
        key: fx.keys.editor,
        body: { action: 'send', target: `mail://${route}/${n}` },
      });
      return {
        path: `/v1/approvals/${(r.body.approval as { id: string }).id}/${route.endsWith('approve') ? 'approve' : 'deny'}`,
      };
    }
    default:
      return keyRequestFor(route, who, n);
  }
}

/** A consent asked (by the Editor) of `who` when `who` is on the share list, else of the Viewer. */
async function consentFor(who: Who): Promise<string> {
  const shared = who === 'owner' || who === 'editor' || who === 'viewer';
  const user = shared ? SUBJECTS[who] : SUBJECTS.viewer;
  const body = { user, service: 'slack', scopes: ['chat:write'] };
  const r = await fx.call('POST', `/v1/agents/${state.agent}/delegations/pending`, {
    key: fx.keys.editor,
    body,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return String(r.body.id);
}

/** The delegation routes: each answer on a consent of its own, each revocation on a grant of its own. */
async function delegationRequestFor(route: string, who: Who): Promise<Call> {
  const base = `/v1/agents/${state.agent}/delegations`;
  switch (route) {
    case 'POST /v1/agents/{agent_id}/delegations/pending':
      return {
        path: `${base}/pending`,
        body: { user: SUBJECTS.viewer, service: 'slack', scopes: ['chat:read'] },
      };
    case 'POST /v1/agents/{agent_id}/delegations/pending/{consent_id}/deny':
      return { path: `${base}/pending/${await consentFor(who)}/deny` };
    case 'POST /v1/agents/{agent_id}/delegations':
      return { path: base, body: { consent_id: await consentFor(who) } };
    case 'DELETE /v1/agents/{agent_id}/delegations/{grant_id}': {
      const consent = await consentFor(who);
      const user = who === 'owner' || who === 'editor' ? fx.keys[who] : fx.keys.viewer;
      const g = await fx.call('POST', base, { key: user, body: { consent_id: consent } });
      expect(g.status, JSON.stringify(g.body)).toBe(201);
      return { path: `${base}/${String(g.body.id)}` };
    }
    default:
      return { path: route.slice(route.indexOf(' ') + 1).replace('{agent_id}', state.agent) };
  }
}

/** The workflow routes, on one workflow created (as org admin) at first use. */
async function workflowRequestFor(route: string, n: number): Promise<Call> {
  const graph = (agent: string) => ({
    nodes: [{ name: 'solo', agent, spec: { owners: defaultOwners(), model: { id: 'm' } } }],
  });
  if (!state.workflow) {
    state.workflow = `${ns.name}.wf`;
    const body = { namespace: ns.name, name: 'wf', ...graph('wf-solo') };
    const r = await fx.call('POST', '/api/v1/workflows', { key: fx.keys.org_admin, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  if (route === 'POST /api/v1/workflows')
    return { path: '/api/v1/workflows', body: { namespace: ns.name, name: `wf-${n}`, ...graph(`wf-${n}`) } };
  if (route === 'DELETE /api/v1/workflows/{id}') {
    // Each call deletes a draft of its own, so the shared workflow stays for the other routes.
    const body = { namespace: ns.name, name: `wf-del-${n}`, ...graph(`wf-del-${n}`) };
    expect((await fx.call('POST', '/api/v1/workflows', { key: fx.keys.org_admin, body })).status).toBe(201);
    return { path: `/api/v1/workflows/${ns.name}.wf-del-${n}` };
  }
  const path = route.slice(route.indexOf(' ') + 1).replace('{id}', state.workflow);
  return route.startsWith('PUT') ? { path, body: graph('wf-solo') } : { path };
}

/** The API key routes; a key to delete is minted first, as the caller when it may mint (else as admin). */
async function keyRequestFor(route: string, who: Who, n: number): Promise<Call> {
  switch (route) {
    case 'POST /v1/api-keys':
      return { path: '/v1/api-keys', body: {} };
    case 'DELETE /v1/api-keys/{id}': {
      const r = await fx.call('POST', '/v1/api-keys', {
        key: who === 'anonymous' || who === 'gateway' ? fx.keys.org_admin : fx.keys[who],
        body: {},
      });
      return { path: `/v1/api-keys/${String(r.body.id)}` };
    }
    default:
      return settingsCall(route) ?? egressCall(route) ?? verifierRequestFor(route, who, n);
  }
}

/** The secret-bearing egress routes (refused to everyone here). */
function egressCall(route: string): Call | undefined {
  const agent = `/v1/agents/${state.agent}`;
  const calls: Record<string, Call> = {
    'GET /v1/agents/{agent_id}/egress/credentials/{credential}': { path: `${agent}/egress/credentials/none` },
    'POST /v1/agents/{agent_id}/svid': {
      path: `${agent}/svid`,
      body: { audience: 'https://as.example.test' },
    },
  };
  return calls[route];
}

/** The auditor-settings routes, at the agent tier. */
function settingsCall(route: string): Call | undefined {
  const query = `scope=agent&agent_id=${state.agent}&auditor_id=toxicity&setting=threshold`;
  const body = {
    scope: 'agent',
    agent_id: state.agent,
    auditor_id: 'toxicity',
    setting: 'threshold',
    value: 0.5,
  };
  const calls: Record<string, Call> = {
    'GET /v1/auditors/settings': { path: `/v1/auditors/settings?${query}` },
    'PUT /v1/auditors/settings': { path: '/v1/auditors/settings', body },
    'DELETE /v1/auditors/settings': { path: `/v1/auditors/settings?${query}` },
  };
  return calls[route];
}

/** Pins a fresh key under a fresh attester id (the Gateway key submits for it); its revocation path. */
async function pinnedKeyPath(n: number): Promise<string> {
  const signer = createAttestationAgent({ provider: 'MOCK' });
  const { signature: _, ...unsigned } = await sampleEvidence(
    `matrix-pin-${ns.name}-${n}`,
    state.agent,
    signer,
  );
  const attester = `gateway/matrix-${n}`;
  const body = await signEvidence({ ...unsigned, attester_id: attester }, signer);
  const r = await fx.call('POST', '/v1/evidence', { key: state.gatewayKey, body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return `/v1/attesters/${encodeURIComponent(attester)}/keys/${signer.binding().key_id}`;
}

/** One data-access record of the matrix agent's credential proxy. */
const dataAccess = (n: number): Record<string, unknown> => ({
  at: new Date().toISOString(),
  kind: 'https',
  destination: 'api.example.com:443',
  method: 'GET',
  action: 'read',
  path: `/matrix/${n}`,
  outcome: 'forwarded',
  bytes_up: 0,
  bytes_down: 0,
  duration_ms: 0,
});

/** The policy, evidence and registry routes. */
async function verifierRequestFor(route: string, who: Who, n: number): Promise<Call> {
  const policy = `/v1/policies/${state.policy}`;
  switch (route) {
    case 'POST /v1/evidence':
      return { path: '/v1/evidence', body: await sampleEvidence(`matrix-${ns.name}-${n}`, state.agent) };
    case 'DELETE /v1/attesters/{attester_id}/keys/{key_id}':
      return { path: await pinnedKeyPath(n) };
    case 'POST /v1/agents/{agent_id}/accesses':
      return { path: `/v1/agents/${state.agent}/accesses`, body: { records: [dataAccess(n)] } };
    case 'POST /v1/policies':
      return { path: '/v1/policies', body: { id: `${ns.name}.p-${n}`, spec: wsPolicy } };
    case 'PUT /v1/policies/{id}':
      return { path: policy, body: { spec: { ...wsPolicy, description: `by ${who}` } } };
    case 'DELETE /v1/policies/{id}': {
      const id = `${ns.name}.d-${n}`;
      await fx.call('POST', '/v1/policies', { key: fx.keys.org_admin, body: { id, spec: wsPolicy } });
      return { path: `/v1/policies/${id}` };
    }
    default:
      return (
        registrationRequestFor(route) ??
        (await catalogRequestFor(route)) ?? {
          path: route
            .slice(route.indexOf(' ') + 1)
            .replace('{agent_id}', state.agent)
            .replace('/v1/policies/{id}', `/v1/policies/${state.policy}`)
            .replace('/v1/auditors/schema/{id}', '/v1/auditors/schema/injection')
            .replace('{id}', state.approval)
            .replace('{digest}', state.digest)
            .replace('/registry/check', `/registry/check?digest=${state.digest}`),
        }
      );
  }
}

/** The routes whose request is a fixed body: presets, registrations and notarizations. */
function registrationRequestFor(route: string): Call | undefined {
  switch (route) {
    case 'POST /api/v1/workspaces/{id}/apply-preset':
      return {
        path: `/api/v1/workspaces/${ns.name}/apply-preset`,
        body: { auditor: 'injection', tier: 'Starter' },
      };
    case 'POST /v1/auditors/register':
      return {
        path: '/v1/auditors/register',
        body: {
          auditor_id: `reg-${ns.name}`,
          endpoint: 'https://auditor.example.com',
          deployment_mode: 'external',
          auth: { type: 'mtls', cert_pem: 'test-ca' },
        },
      };
    case 'POST /v1/registry/notarizations':
      return { path: '/v1/registry/notarizations', body: { digest: state.digest } };
    case 'POST /v1/models/register':
      return {
        path: '/v1/models/register',
        body: {
          model_id: `m-${ns.name}`,
          deployment_mode: 'in-cluster',
          endpoint: 'http://llm.example:8000',
        },
      };
    default:
      return undefined;
  }
}

/** A session the caller started (an administrator's own), else one of the org admin's. */
async function oauthSessionRequest(who: Who): Promise<Call> {
  const key = who === 'workspace_admin' ? fx.keys.workspace_admin : fx.keys.org_admin;
  const body = { scope: 'workspace', scope_id: `${ns.name}.ws`, service: 'matrix-docs' };
  const r = await fx.call('POST', '/v1/scoped-credentials/oauth/start', { key, body });
  return { path: `/v1/scoped-credentials/oauth/sessions/${String(r.body.state)}` };
}

let oauthCredential: Promise<string> | undefined;

/** Scoped credentials and tools in the matrix workspace; each change on an object of its own. */
async function scopedRequestFor(route: string, n: number): Promise<Call> {
  const tier = { scope: 'workspace', scope_id: `${ns.name}.ws` };
  const admin = { key: fx.keys.org_admin };
  const credential = async (service: string): Promise<string> => {
    const body = { ...tier, service, material: `m-${n}` };
    return String((await fx.call('POST', '/v1/scoped-credentials', { ...admin, body })).body.id);
  };
  const tool = { ...tier, tool: 'builtin-toxicity', enforcement: 'available' };
  const toolId = async (): Promise<string> =>
    String((await fx.call('POST', '/v1/scoped-tools', { ...admin, body: tool })).body.id);
  const query = `?scope=workspace&scope_id=${tier.scope_id}`;
  switch (route) {
    case 'POST /v1/scoped-credentials':
      return { path: '/v1/scoped-credentials', body: { ...tier, service: `new-${n}`, material: 'm' } };
    case 'POST /v1/scoped-credentials/{id}/rotate':
      return {
        path: `/v1/scoped-credentials/${await credential(`rot-${n}`)}/rotate`,
        body: { material: 'r' },
      };
    case 'DELETE /v1/scoped-credentials/{id}':
      return { path: `/v1/scoped-credentials/${await credential(`del-${n}`)}` };
    case 'POST /v1/scoped-tools':
      await fx.call('DELETE', `/v1/scoped-tools/${await toolId()}`, admin);
      return { path: '/v1/scoped-tools', body: tool };
    case 'DELETE /v1/scoped-tools/{id}':
      return { path: `/v1/scoped-tools/${await toolId()}` };
    case 'POST /v1/scoped-credentials/oauth/start':
      return { path: '/v1/scoped-credentials/oauth/start', body: { ...tier, service: 'matrix-docs' } };
    case 'POST /v1/scoped-credentials/{id}/reconnect':
      // One OAuth credential for every caller: a reconnect changes nothing until its callback.
      oauthCredential ??= fx
        .call('POST', '/v1/scoped-credentials', {
          ...admin,
          body: { ...tier, service: 'matrix-mail', type: 'oauth_flow' },
        })
        .then((r) => String(r.body.id));
      return { path: `/v1/scoped-credentials/${await oauthCredential}/reconnect` };
    default:
      return route.endsWith('/effective')
        ? { path: `${route.slice(route.indexOf(' ') + 1)}?agent_id=${state.agent}` }
        : { path: `${route.slice(route.indexOf(' ') + 1)}${query}` };
  }
}

/** The app catalog's routes: each install a create, each uninstall of an installed app. */
async function catalogRequestFor(route: string): Promise<Call | undefined> {
  const apps = `/v1/app-catalog/agents/${state.agent}`;
  const app = 'builtin-toxicity';
  const admin = { key: fx.keys.org_admin };
  switch (route) {
    case 'GET /v1/app-catalog/{app_id}':
      return { path: `/v1/app-catalog/${app}` };
    case 'POST /v1/app-catalog/agents/{agent_id}/install':
      await fx.call('DELETE', `${apps}/uninstall?app_id=${app}`, admin);
      return { path: `${apps}/install`, body: { app_id: app } };
    case 'DELETE /v1/app-catalog/agents/{agent_id}/uninstall':
      await fx.call('POST', `${apps}/install`, { ...admin, body: { app_id: app } });
      return { path: `${apps}/uninstall?app_id=${app}` };
    default:
      return undefined;
  }
}

beforeAll(async () => {
  wsPolicy.scopeId = ns.name;
  // A second Owner, so an Owner's own requests have someone to approve them (no 409 no_approver).
  state.agent = await fx.createAgent('matrix', [
    ...defaultOwners(),
    { subject: 'oscar@matrix', role: 'Owner' },
  ]);
  state.policy = `${ns.name}.matrix`;
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'platformworkspaces',
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformWorkspace',
        metadata: { name: 'ws' },
        spec: {},
      },
    });
  const p = await fx.call('POST', '/v1/policies', {
    key: fx.keys.org_admin,
    body: { id: state.policy, spec: wsPolicy },
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  const g = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject: 'gateway@matrix', role: 'gateway' },
  });
  state.gatewayKey = String(g.body.key);
  const r = await fx.call('POST', `/v1/agents/${state.agent}/actions`, {
    key: fx.keys.editor,
    body: { action: 'merge', target: 'pr://1' },
  });
  state.approval = (r.body.approval as { id: string }).id;
  state.digest = `sha256:${ns.name
    .replace(/[^a-f0-9]/g, 'a')
    .padEnd(64, '0')
    .slice(0, 64)}`;
  await kubeConfig()
    .makeApiClient(k8s.CustomObjectsApi)
    .createClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'modelregistrations',
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'ModelRegistration',
        metadata: { name: `model-${ns.name}` },
        spec: {
          modelId: 'm',
          deploymentMode: 'in-cluster',
          endpoint: 'http://m.local',
          imageDigest: state.digest,
        },
      },
    });
  await fx.until(`/v1/approvals/${state.approval}`, (g) => g.status === 200);
  await eventually(
    () => (fx.api.deps.models.list().some((m) => m.spec.imageDigest === state.digest) ? true : undefined),
    'the registration in the cache',
  );
});

afterAll(async () => {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  const ref = { group: GROUP, version: VERSION, plural: 'modelregistrations', name: `model-${ns.name}` };
  await api.deleteClusterCustomObject(ref).catch(() => undefined);
  await api
    .deleteClusterCustomObject({ ...ref, plural: 'auditorregistrations', name: `reg-${ns.name}` })
    .catch(() => undefined);
});

describe('route × role matrix', () => {
  it('has an expectation for every route and no stale rows', () => {
    const routes = ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(EXPECTED).sort()).toEqual(routes);
  });

  const cells = ROUTES.flatMap((r) =>
    WHO.map((who) => ({ route: `${r.method} ${r.path}`, method: r.method, success: r.success, who })),
  );
  it.each(cells.map((c, n) => [c.route, c.who, n, c] as const))('%s as %s', async (route, who, n, cell) => {
    const call = await requestFor(route, who, n);
    const r = await fx.call(cell.method, call.path, {
      key: keyOf(who),
      body: call.body,
      ...(call.raw !== undefined ? { raw: call.raw, headers: call.headers } : {}),
    });
    const allowed = EXPECTED[route]!.includes(who);
    const expected = allowed ? cell.success : who === 'anonymous' ? 401 : 403;
    expect(r.status, JSON.stringify(r.body)).toBe(expected);
  });
});
