// Hash routes of the single-page app (the server serves one index.html):
//   #/agents  #/agents/new  #/agents/<agent_id>  #/agents/<agent_id>/console  #/approvals  #/approvals/delegations  #/login
//   #/settings  #/settings/org/<org>  #/settings/workspace/<namespace>/<workspace>  #/settings/agent/<agent_id>
//   #/credentials  #/credentials/org/<org>  #/credentials/workspace/<namespace>/<workspace>  #/credentials/agent/<agent_id>
//   #/catalog  #/definitions  #/definitions/user-context
// Pure.

/** The tier of the auditor-settings cascade a settings page shows. */
export type SettingsScope =
  | { scope: 'org'; organization: string }
  | { scope: 'workspace'; namespace: string; workspace: string }
  | { scope: 'agent'; agent_id: string };

export type Route =
  | { page: 'login' }
  | { page: 'agents' }
  | { page: 'new-agent' }
  | { page: 'agent'; id: string }
  | { page: 'console'; id: string }
  | { page: 'approvals'; tab: 'pending' | 'delegations' }
  | { page: 'settings'; target?: SettingsScope }
  | { page: 'catalog' }
  | { page: 'credentials'; target?: SettingsScope }
  | { page: 'definitions'; tab: 'definition' | 'user-context' }
  | { page: 'not-found'; path: string };

const AGENT_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/;
const NAME = /^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/;

function settingsTarget(parts: string[]): SettingsScope | undefined {
  const [kind, ...rest] = parts.map(decodeURIComponent);
  if (kind === 'org' && rest.length === 1 && NAME.test(rest[0]!))
    return { scope: 'org', organization: rest[0]! };
  if (kind === 'workspace' && rest.length === 2 && rest.every((p) => NAME.test(p)))
    return { scope: 'workspace', namespace: rest[0]!, workspace: rest[1]! };
  if (kind === 'agent' && rest.length === 1 && AGENT_ID.test(rest[0]!))
    return { scope: 'agent', agent_id: rest[0]! };
  return undefined;
}

/** `#/settings/...` and `#/credentials/...`: the page, then an optional tier. */
function tierRoute(page: 'settings' | 'credentials', parts: string[], path: string): Route {
  if (parts.length === 1) return { page };
  const target = settingsTarget(parts.slice(1));
  return target ? { page, target } : { page: 'not-found', path };
}

/** `#/agents/<id>` and `#/agents/<id>/console`; undefined for any other path. */
function agentRoute(parts: string[], path: string): Route | undefined {
  if (parts[0] !== 'agents' || !(parts.length === 2 || (parts.length === 3 && parts[2] === 'console')))
    return undefined;
  const id = decodeURIComponent(parts[1]!);
  if (!AGENT_ID.test(id)) return { page: 'not-found', path };
  return parts.length === 3 ? { page: 'console', id } : { page: 'agent', id };
}

const FIXED: Record<string, Route> = {
  '/login': { page: 'login' },
  '/agents': { page: 'agents' },
  '/agents/new': { page: 'new-agent' },
  '/approvals': { page: 'approvals', tab: 'pending' },
  '/approvals/delegations': { page: 'approvals', tab: 'delegations' },
  '/catalog': { page: 'catalog' },
  '/definitions': { page: 'definitions', tab: 'definition' },
  '/definitions/user-context': { page: 'definitions', tab: 'user-context' },
};

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/agents';
  const parts = path.split('/').filter(Boolean);
  const fixed = FIXED[path];
  if (fixed) return fixed;
  const agent = agentRoute(parts, path);
  if (agent) return agent;
  if (parts[0] === 'settings' || parts[0] === 'credentials') return tierRoute(parts[0], parts, path);
  return { page: 'not-found', path };
}

const enc = encodeURIComponent;

export function settingsHref(t: SettingsScope | undefined): string {
  if (!t) return '#/settings';
  if (t.scope === 'org') return `#/settings/org/${enc(t.organization)}`;
  if (t.scope === 'workspace') return `#/settings/workspace/${enc(t.namespace)}/${enc(t.workspace)}`;
  return `#/settings/agent/${enc(t.agent_id)}`;
}

/** The credentials and tools page of a tier. */
export const credentialsHref = (t: SettingsScope | undefined): string =>
  settingsHref(t).replace(/^#\/settings/, '#/credentials');

/** Pages with a tab: the first tab's address is the page's own. */
function tabHref(route: Extract<Route, { tab: string }>): string {
  if (route.page === 'approvals') return route.tab === 'pending' ? '#/approvals' : '#/approvals/delegations';
  return route.tab === 'definition' ? '#/definitions' : '#/definitions/user-context';
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'agent':
      return `#/agents/${enc(route.id)}`;
    case 'console':
      return `#/agents/${enc(route.id)}/console`;
    case 'approvals':
    case 'definitions':
      return tabHref(route);
    case 'new-agent':
      return '#/agents/new';
    case 'settings':
      return settingsHref(route.target);
    case 'credentials':
      return credentialsHref(route.target);
    case 'not-found':
      return `#${route.path}`;
    default:
      return `#/${route.page}`;
  }
}
