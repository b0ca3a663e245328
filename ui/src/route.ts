// Hash routes of the single-page app (the server serves one index.html):
//   #/agents  #/agents/<agent_id>  #/approvals  #/approvals/delegations  #/login
// Pure.

export type Route =
  | { page: 'login' }
  | { page: 'agents' }
  | { page: 'agent'; id: string }
  | { page: 'approvals'; tab: 'pending' | 'delegations' }
  | { page: 'not-found'; path: string };

const AGENT_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\.[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/;

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/agents';
  const parts = path.split('/').filter(Boolean);
  if (path === '/login') return { page: 'login' };
  if (path === '/agents') return { page: 'agents' };
  if (parts.length === 2 && parts[0] === 'agents') {
    const id = decodeURIComponent(parts[1]!);
    return AGENT_ID.test(id) ? { page: 'agent', id } : { page: 'not-found', path };
  }
  if (path === '/approvals') return { page: 'approvals', tab: 'pending' };
  if (path === '/approvals/delegations') return { page: 'approvals', tab: 'delegations' };
  return { page: 'not-found', path };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'agent':
      return `#/agents/${encodeURIComponent(route.id)}`;
    case 'approvals':
      return route.tab === 'pending' ? '#/approvals' : '#/approvals/delegations';
    case 'not-found':
      return `#${route.path}`;
    default:
      return `#/${route.page}`;
  }
}
