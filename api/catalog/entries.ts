// The app catalog, pure: the built-in auditors (derived from
// auditors/builtin.ts, never stored) beside the AppCatalogEntry objects an
// org administrator creates, as the API shows them; the list filters; the
// install counts; and the auditors an agent's installed apps put into its
// chain (read by the agent controller). Decisions 110, 111.
import { createHash } from 'node:crypto';
import type { AgentInstalledApp, AppCatalogEntry, AuditorRegistration } from '../../crds/generated/types.ts';
import { BUILTIN_AUDITOR_TABLE, type BuiltinAuditor } from '../../auditors/builtin.ts';
import { registeredTier } from '../registry/auditors.ts';
import { APP_CATEGORIES, APP_TYPES } from '../../crds/schema/enums.ts';

/** A built-in auditor's app id: `builtin-<auditor id>` (an AppCatalogEntry of that name is shadowed). */
export const BUILTIN_APP_PREFIX = 'builtin-';

export interface McpMetadata {
  authorization_servers: string[];
  scopes: string[];
  resource_indicators: string[];
  token_endpoint: string | null;
}

export interface CatalogApp {
  app_id: string;
  name: string;
  description: string;
  category: string;
  type: string;
  trust_tier: string;
  builtin: boolean;
  version: string | null;
  auditor_id: string | null;
  required_permissions: string[];
  data_classes: string[];
  auditor_requirements: string[];
  server_url: string | null;
  mcp_metadata: McpMetadata | null;
  install_count: number;
}

function builtinApp(a: BuiltinAuditor): CatalogApp {
  return {
    app_id: `${BUILTIN_APP_PREFIX}${a.id}`,
    name: a.catalog.name,
    description: a.catalog.description,
    category: 'Auditors',
    type: 'auditor',
    trust_tier: registeredTier(a.id, undefined),
    builtin: true,
    version: null,
    auditor_id: a.id,
    required_permissions: [],
    data_classes: [],
    auditor_requirements: [],
    server_url: null,
    mcp_metadata: null,
    install_count: 0,
  };
}

/** The API view of MCP metadata, on a catalog entry or on an install (discovered). */
export function mcpMetadataView(m: AppCatalogEntry['spec']['mcpMetadata']): McpMetadata | null {
  if (!m) return null;
  return {
    authorization_servers: m.authorizationServers ?? [],
    scopes: m.scopes ?? [],
    resource_indicators: m.resourceIndicators ?? [],
    token_endpoint: m.tokenEndpoint ?? null,
  };
}

export function entryApp(e: AppCatalogEntry): CatalogApp {
  const s = e.spec;
  return {
    app_id: e.metadata.name ?? '',
    name: s.displayName,
    description: s.description ?? '',
    category: s.category,
    type: s.type,
    trust_tier: s.trustTier ?? 'unverified',
    builtin: false,
    version: s.version ?? null,
    auditor_id: s.auditorId ?? null,
    required_permissions: s.requiredPermissions ?? [],
    data_classes: s.dataClasses ?? [],
    auditor_requirements: s.auditorRequirements ?? [],
    server_url: s.serverUrl ?? null,
    mcp_metadata: mcpMetadataView(s.mcpMetadata),
    install_count: 0,
  };
}

/** A registered auditor's app id: `registered-<auditor id>` (an AppCatalogEntry of that name, or for that auditor, wins). */
export const REGISTERED_APP_PREFIX = 'registered-';

/** A registered (not built-in) auditor as an auditor app, so it can be installed like any other. */
function registeredEntry(r: AuditorRegistration): AppCatalogEntry {
  const s = r.spec;
  return {
    apiVersion: r.apiVersion,
    kind: 'AppCatalogEntry',
    metadata: { name: `${REGISTERED_APP_PREFIX}${s.auditorId}` },
    spec: {
      displayName: s.displayName ?? s.auditorId,
      description: s.description ?? `Registered ${s.deploymentMode} auditor ${s.auditorId}.`,
      category: 'Auditors',
      type: 'auditor',
      trustTier: registeredTier(s.auditorId, r) as AppCatalogEntry['spec']['trustTier'],
      ...(s.version ? { version: s.version } : {}),
      auditorId: s.auditorId,
    },
  } as AppCatalogEntry;
}

/**
 * The stored entries, then one auditor app per registered auditor that no stored entry shadows: one
 * of the same name, or an auditor entry for the same auditor (an administrator's curated listing).
 */
export function withRegisteredAuditors(
  entries: readonly AppCatalogEntry[],
  registrations: readonly AuditorRegistration[],
): AppCatalogEntry[] {
  const names = new Set(entries.map((e) => e.metadata.name));
  const listed = new Set(
    entries.flatMap((e) => (e.spec.type === 'auditor' && e.spec.auditorId ? [e.spec.auditorId] : [])),
  );
  const registered = registrations
    .filter((r) => !BUILTIN_AUDITOR_TABLE.some((b) => b.id === r.spec.auditorId))
    .filter((r) => !listed.has(r.spec.auditorId))
    .map(registeredEntry)
    .filter((e) => !names.has(e.metadata.name));
  return [...entries, ...registered];
}

/** Installs per app id. */
export function installCounts(installs: readonly AgentInstalledApp[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of installs) counts.set(i.spec.app, (counts.get(i.spec.app) ?? 0) + 1);
  return counts;
}

/** Every app: the built-in auditors first, then the entries by name, each with its install count. */
export function catalogApps(
  entries: readonly AppCatalogEntry[],
  installs: readonly AgentInstalledApp[],
): CatalogApp[] {
  const builtin = BUILTIN_AUDITOR_TABLE.map(builtinApp);
  const taken = new Set(builtin.map((a) => a.app_id));
  const stored = entries
    .map(entryApp)
    .filter((a) => !taken.has(a.app_id))
    .sort((a, b) => a.app_id.localeCompare(b.app_id));
  const counts = installCounts(installs);
  return [...builtin, ...stored].map((a) => ({ ...a, install_count: counts.get(a.app_id) ?? 0 }));
}

/** One app by id (a built-in auditor wins over an entry of the same name). */
export function findApp(
  id: string,
  entries: readonly AppCatalogEntry[],
  installs: readonly AgentInstalledApp[] = [],
): CatalogApp | undefined {
  return catalogApps(
    entries.filter((e) => e.metadata.name === id),
    installs.filter((i) => i.spec.app === id),
  ).find((a) => a.app_id === id);
}

export interface CatalogFilter {
  category?: string;
  type?: string;
  search?: string;
}

/** What is wrong with a filter (an unknown category or type), or undefined. */
export function filterProblem(f: CatalogFilter): string | undefined {
  if (f.category !== undefined && !(APP_CATEGORIES as readonly string[]).includes(f.category)) {
    return `unknown category ${JSON.stringify(f.category.slice(0, 40))}: one of ${APP_CATEGORIES.join(', ')}`;
  }
  if (f.type !== undefined && !(APP_TYPES as readonly string[]).includes(f.type)) {
    return `unknown type ${JSON.stringify(f.type.slice(0, 40))}: one of ${APP_TYPES.join(', ')}`;
  }
  return undefined;
}

const matchesSearch = (a: CatalogApp, search: string): boolean =>
  [a.app_id, a.name, a.description].some((s) => s.toLowerCase().includes(search.toLowerCase()));

export function filterApps(apps: readonly CatalogApp[], f: CatalogFilter): CatalogApp[] {
  return apps.filter(
    (a) =>
      (f.category === undefined || a.category === f.category) &&
      (f.type === undefined || a.type === f.type) &&
      (f.search === undefined || matchesSearch(a, f.search)),
  );
}

/**
 * The AgentInstalledApp name of an install: readable (the agent's name) and
 * unique per agent and app (a hash of both), within the 63 characters of a label value.
 */
export function installName(agent: string, app: string): string {
  const hash = createHash('sha256').update(`${agent}/${app}`).digest('hex').slice(0, 12);
  return `${agent.slice(0, 40).replace(/[.-]+$/, '')}-app-${hash}`;
}

/** The auditors an app puts into the chain of an agent it is installed on: its own, then its requirements. */
export function auditorsOfApp(app: CatalogApp): string[] {
  return [...(app.auditor_id && app.type === 'auditor' ? [app.auditor_id] : []), ...app.auditor_requirements];
}

export interface InstalledAuditors {
  app: string;
  auditors: string[];
}

/** The installed apps of one agent that bring auditors, in install-name order (stable). */
export function installedAuditors(
  installs: readonly AgentInstalledApp[],
  entries: readonly AppCatalogEntry[],
): InstalledAuditors[] {
  return [...installs]
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((i) => findApp(i.spec.app, entries))
    .filter((a): a is CatalogApp => a !== undefined)
    .map((a) => ({ app: a.app_id, auditors: auditorsOfApp(a) }))
    .filter((a) => a.auditors.length > 0);
}
