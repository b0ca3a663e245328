// The app catalog (decisions 110, 111):
//   GET    /v1/app-catalog                               apps (built-in auditors and AppCatalogEntries);
//                                                        ?category= ?type= ?search=
//   GET    /v1/app-catalog/{app_id}                      one app
//   POST   /v1/app-catalog/agents/{agent_id}/install     install (or reconfigure) an app on an agent
//   DELETE /v1/app-catalog/agents/{agent_id}/uninstall   ?app_id= : remove it
//   GET    /v1/app-catalog/agents/{agent_id}/installed   the agent's installs with their overrides
// An install is an AgentInstalledApp beside the agent, owned by it; the
// agent controller puts the auditors it brings into the agent's chain and its
// MCP tools and A2A connections into its status. A tool its org or workspace
// blocks is not installed (403 tool_blocked) nor shown in that agent's view
// (?agent_id=), one they require not uninstalled (409 app_required); secrets
// in the overrides are refused (422).
import { badRequest, conflict, HttpError, notFound, unprocessable } from '../../base/http-error.ts';
import { agentTiers, agentToolRulings } from '../catalog/agent-tiers.ts';
import { installAuth, type InstallAuth } from '../catalog/install-flow.ts';
import { requestJson } from '../catalog/outbound.ts';
import { agentForQuery } from '../scoped/access.ts';
import { encryptedSecret, MATERIAL_KEY } from '../scoped/objects.ts';
import { agentAccessManifest } from '../delegations/agent-manifest.ts';
import {
  dataPermitted,
  hostPermitted,
  toolPermitted,
  type EffectiveManifest,
} from '../../policy/access-manifest.ts';
import { secretInConfiguration } from '../catalog/secret-config.ts';
import { rulingLabel } from '../catalog/tool-cascade.ts';
import {
  catalogApps,
  filterApps,
  filterProblem,
  findApp,
  installName,
  withRegisteredAuditors,
  type CatalogApp,
} from '../catalog/entries.ts';
import {
  APP_ID_PATTERN,
  INSTALL_BODY,
  installObject,
  installRecord,
  type InstallBody,
} from '../catalog/installs.ts';
import type { PlatformAgent } from '../agents/model.ts';
import { patternQuery, stringQuery } from '../http/validate.ts';
import type { AgentInstalledApp, AppCatalogEntry } from '../../crds/generated/types.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { CATALOG_APP, CATALOG_LIST, INSTALLED_APP, INSTALLED_LIST, UNINSTALLED } from './responses.ts';

const agentOf = (rc: RouteCtx): PlatformAgent => rc.agent as PlatformAgent;

/** With `?agent_id=`, the tools the agent's org or workspace blocks: hidden from its view (decision 150). */
async function blockedFor(rc: RouteCtx): Promise<Set<string>> {
  if (rc.query.agent_id === undefined) return new Set();
  const { agent } = await agentForQuery(rc);
  const rulings = await agentToolRulings(rc.deps.writer, agent);
  return new Set([...rulings.values()].filter((r) => r.enforcement === 'blocked').map((r) => r.tool));
}

async function listApps(rc: RouteCtx): Promise<unknown> {
  rc.audit = { resource: 'app-catalog' };
  const filter = {
    category: stringQuery(rc.query, 'category', 40),
    type: stringQuery(rc.query, 'type', 40),
    search: stringQuery(rc.query, 'search', 200),
  };
  const problem = filterProblem(filter);
  if (problem) throw badRequest(problem, 'invalid_query');
  const blocked = await blockedFor(rc);
  const apps = catalogApps(entriesOf(rc), rc.deps.installedApps.list()).filter((a) => !blocked.has(a.app_id));
  return { items: filterApps(apps, filter) };
}

/** The catalog's entries: the stored ones and the registered auditors (the built-ins are added by `catalogApps`). */
const entriesOf = (rc: RouteCtx): AppCatalogEntry[] =>
  withRegisteredAuditors(rc.deps.catalog.list(), rc.deps.auditors.list());

function getApp(rc: RouteCtx): Promise<unknown> {
  const id = rc.params.app_id ?? '';
  rc.audit = { resource: `app-catalog/${id}` };
  const app = findApp(id, entriesOf(rc), rc.deps.installedApps.list());
  if (!app) throw notFound(`app ${JSON.stringify(id.slice(0, 253))} is not in the catalog`);
  return Promise.resolve(app);
}

/**
 * The name of the agent's install of `appId`: the one the cache holds (it may
 * have been created with kubectl under any name), else the API's own name.
 */
function installNameOf(rc: RouteCtx, agent: PlatformAgent, appId: string): string {
  const cached = installsOf(rc, agent).find((i) => i.spec.app === appId);
  return cached?.metadata.name ?? installName(agent.metadata.name ?? '', appId);
}

/** The agent's installs, as cached. */
function installsOf(rc: RouteCtx, agent: PlatformAgent): AgentInstalledApp[] {
  return rc.deps.installedApps
    .list()
    .filter((i) => i.metadata.namespace === agent.metadata.namespace && i.spec.agent === agent.metadata.name);
}

/**
 * Mirrors an entry's install count into its status (for kubectl), counting the
 * cache's other installs plus this change (decision 110). Best effort: the
 * count the API serves is always computed from the installs themselves.
 */
async function mirrorInstallCount(rc: RouteCtx, appId: string, name: string, installed: boolean) {
  if (!rc.deps.catalog.get(appId)) return;
  const others = rc.deps.installedApps
    .list()
    .filter((i) => i.spec.app === appId && i.metadata.name !== name).length;
  try {
    await rc.deps.writer.mergeCatalogStatus(appId, { installCount: others + (installed ? 1 : 0) });
  } catch (err) {
    rc.deps.log.warn({ err: String(err), app: appId }, 'install count not written');
  }
}

/** Refuses overrides that are or name a secret: those go in ScopedCredentials (decision 127). */
function refuseSecrets(configuration: InstallBody['configuration']): void {
  const at = secretInConfiguration(configuration ?? {});
  if (at === undefined) return;
  throw unprocessable(
    `configuration.${at.slice(0, 200)} looks like a secret: store it as a ScopedCredential, not in an install's configuration`,
    'secret_in_configuration',
  );
}

/** Refuses a tool the agent's organization or workspace blocks (step 1 of the MCP tool install flow). */
async function refuseBlocked(rc: RouteCtx, agent: PlatformAgent, appId: string): Promise<void> {
  const ruling = (await agentToolRulings(rc.deps.writer, agent)).get(appId);
  if (ruling?.enforcement !== 'blocked') return;
  rc.audit.details = { app: appId, blocked_by: `${ruling.scope}:${ruling.scopeId}` };
  throw new HttpError(403, `app ${appId} is blocked by ${rulingLabel(ruling)}`, 'tool_blocked');
}

/** Why the manifest keeps `app` out: its id (tools), a data class (data) or its server's host (network). */
function manifestRefusal(manifest: EffectiveManifest, app: CatalogApp): [string, string] | undefined {
  if (!toolPermitted(manifest, app.app_id)) return ['tool_not_permitted', `app ${app.app_id}`];
  const dataClass = app.data_classes.find((c) => !dataPermitted(manifest, c));
  if (dataClass)
    return ['data_class_not_permitted', `data of class ${dataClass}, which app ${app.app_id} reads`];
  const host = app.server_url ? hostOf(app.server_url) : undefined;
  if (host && !hostPermitted(manifest, host))
    return ['host_not_permitted', `host ${host} of app ${app.app_id}`];
  return undefined;
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
};

/**
 * Refuses an app outside the agent's Access Manifest (decisions 139, 153):
 * its tools, data and network domains. Auditor apps only observe, so the
 * manifest never keeps one out.
 */
async function refuseOutsideManifest(rc: RouteCtx, agent: PlatformAgent, app: CatalogApp) {
  if (app.type === 'auditor') return;
  const refusal = manifestRefusal(await agentAccessManifest(rc.deps.writer, agent), app);
  if (!refusal) return;
  const [code, what] = refusal;
  rc.audit.details = { app: app.app_id, refused_by: 'access_manifest', code };
  throw new HttpError(403, `the Access Manifest of this agent does not permit ${what}`, code);
}

/** Refuses to remove a tool the agent's organization or workspace requires (decision 127). */
async function refuseRequired(rc: RouteCtx, agent: PlatformAgent, appId: string): Promise<void> {
  const ruling = (await agentToolRulings(rc.deps.writer, agent)).get(appId);
  if (ruling?.enforcement !== 'required') return;
  throw conflict(
    `app ${appId} is required by ${rulingLabel(ruling)} and cannot be uninstalled; an administrator of that tier may change its enforcement`,
    'app_required',
  );
}

/**
 * Steps 2–4 of the MCP tool install flow for an MCP server app with a server
 * URL (other apps have no authorization to set up); throws before anything
 * is written when a step fails.
 */
async function authOf(rc: RouteCtx, agent: PlatformAgent, appId: string): Promise<InstallAuth | undefined> {
  const spec = rc.deps.catalog.get(appId)?.spec;
  if (spec?.type !== 'mcp_server' || !spec.serverUrl) return undefined;
  const auth = await installAuth(
    {
      tiers: await agentTiers(rc.deps.writer, agent),
      listCredentials: (ns) => rc.deps.writer.listCredentials(ns),
      signingKey: rc.deps.signingKey,
      platformIssuer: rc.deps.oauthIssuer,
      requestJson: (url, body) => requestJson(url, body),
      now: rc.deps.now,
    },
    agent,
    { serverUrl: spec.serverUrl, ...(spec.service ? { service: spec.service } : {}) },
  );
  return auth;
}

/**
 * A client secret the authorization server issued despite `private_key_jwt`
 * (decision 156): envelope-encrypted into a Secret beside the agent, owned
 * by it, written before the install so the install never names a Secret that
 * is not there. The keyring is asked first: without it, nothing is written.
 */
async function storeClientSecret(rc: RouteCtx, agent: PlatformAgent, installName: string, auth: InstallAuth) {
  if (auth.clientSecret === undefined) return auth;
  const keyring = await rc.deps.keyring();
  const at = { namespace: agent.metadata.namespace ?? '', name: `${installName}-oauth-client` };
  const owner = { kind: 'PlatformAgent', name: agent.metadata.name ?? '', uid: agent.metadata.uid ?? '' };
  await rc.deps.writer.putSecret(encryptedSecret(at, owner, keyring, auth.clientSecret));
  const { clientSecret: _, ...rest } = auth;
  return { ...rest, auth: { ...rest.auth, clientSecretRef: { name: at.name, key: MATERIAL_KEY } } };
}

async function install(rc: RouteCtx): Promise<unknown> {
  const body = rc.body as InstallBody;
  const agent = agentOf(rc);
  refuseSecrets(body.configuration);
  const app = findApp(body.app_id, entriesOf(rc));
  if (!app) throw unprocessable(`app ${body.app_id} is not in the catalog`, 'unknown_app');
  await refuseBlocked(rc, agent, body.app_id);
  await refuseOutsideManifest(rc, agent, app);
  rc.audit.details = { app: body.app_id };
  const name = installNameOf(rc, agent, body.app_id);
  const found = await authOf(rc, agent, body.app_id);
  const auth = found && (await storeClientSecret(rc, agent, name, found));
  const namespace = agent.metadata.namespace ?? '';
  const existing = await rc.deps.writer.readInstalledApp(namespace, name);
  let saved: AgentInstalledApp;
  try {
    saved = await rc.deps.writer.applyInstalledApp(installObject(agent, body, existing, auth));
  } catch (err) {
    const secretRef = auth?.auth.clientSecretRef;
    if (secretRef) await rc.deps.writer.deleteSecret(namespace, secretRef.name).catch(() => false);
    throw err;
  }
  if (existing) rc.status = 200;
  rc.audit.details = { app: body.app_id, install: name, created: !existing, auth: auth?.auth.method };
  await mirrorInstallCount(rc, body.app_id, name, true);
  return installRecord(saved, app);
}

async function uninstall(rc: RouteCtx): Promise<unknown> {
  const appId = patternQuery(rc.query, 'app_id', APP_ID_PATTERN);
  if (appId === undefined || appId.length > 253) {
    throw badRequest('query app_id: the id of the app to uninstall is required', 'invalid_query');
  }
  const agent = agentOf(rc);
  const name = installNameOf(rc, agent, appId);
  rc.audit.details = { app: appId, install: name };
  await refuseRequired(rc, agent, appId);
  if (!(await rc.deps.writer.deleteInstalledApp(agent.metadata.namespace ?? '', name))) {
    throw notFound(`app ${appId} is not installed on agent ${rc.params.agent_id}`);
  }
  // The client secret of its registration, if the authorization server issued one, goes with it.
  await rc.deps.writer.deleteSecret(agent.metadata.namespace ?? '', `${name}-oauth-client`);
  await mirrorInstallCount(rc, appId, name, false);
  return { agent_id: rc.params.agent_id, app_id: appId, uninstalled: true };
}

function listInstalled(rc: RouteCtx): Promise<unknown> {
  const entries = entriesOf(rc);
  const items = installsOf(rc, agentOf(rc))
    .sort((a, b) => a.spec.app.localeCompare(b.spec.app))
    .map((i) => installRecord(i, findApp(i.spec.app, entries)));
  return Promise.resolve({ items });
}

export const CATALOG_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/app-catalog',
    action: 'catalog.list',
    summary: 'Catalog apps: the built-in auditors and the AppCatalogEntries',
    success: 200,
    response: CATALOG_LIST,
    query: {
      category: 'MCP Servers | Auditors | A2A Agents | Skills | Runtimes',
      type: 'mcp_server | auditor | a2a_agent | skill | runtime',
      search: 'substring of the id, name or description (case-insensitive)',
      agent_id:
        'the agent whose view this is: tools its org or workspace blocks are left out (needs a share)',
    },
    handle: listApps,
  },
  {
    method: 'POST',
    path: '/v1/app-catalog/agents/{agent_id}/install',
    action: 'agent.apps.install',
    summary: 'Install a catalog app on an agent (again: replaces its configuration overrides)',
    success: 201,
    response: INSTALLED_APP,
    otherSuccess: { 200: INSTALLED_APP },
    body: INSTALL_BODY,
    handle: install,
  },
  {
    method: 'DELETE',
    path: '/v1/app-catalog/agents/{agent_id}/uninstall',
    action: 'agent.apps.install',
    summary: 'Uninstall a catalog app from an agent',
    success: 200,
    response: UNINSTALLED,
    query: { app_id: 'the app to uninstall (required)' },
    handle: uninstall,
  },
  {
    method: 'GET',
    path: '/v1/app-catalog/agents/{agent_id}/installed',
    action: 'agent.apps.read',
    summary: "The agent's installed apps with their configuration overrides",
    success: 200,
    response: INSTALLED_LIST,
    handle: listInstalled,
  },
  {
    method: 'GET',
    path: '/v1/app-catalog/{app_id}',
    action: 'catalog.read',
    summary: 'One catalog app',
    success: 200,
    response: CATALOG_APP,
    handle: getApp,
  },
];
