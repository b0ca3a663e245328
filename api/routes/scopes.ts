// GET /v1/scopes: the organizations and workspaces the caller may pick as a
// tier (the UI's settings, credentials and tools pages). Read fresh: a tier
// created a moment ago is there. Who sees what: api/scoped/visible-scopes.ts.
import { visibleScopes } from '../scoped/visible-scopes.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { SCOPES_VIEW } from './scoped-responses.ts';

async function scopes(rc: RouteCtx): Promise<unknown> {
  const [orgs, workspaces] = await Promise.all([
    rc.deps.writer.listOrganizations(),
    rc.deps.writer.listWorkspaces(),
  ]);
  const agents = rc.deps.agents.visibleKeys(rc.principal).flatMap((k) => {
    const a = rc.deps.agents.agent(k);
    return a ? [{ namespace: a.metadata.namespace ?? '', workspace: a.spec.workspace }] : [];
  });
  const view = visibleScopes(
    rc.principal,
    orgs.map((o) => ({ name: o.metadata.name ?? '', homeNamespace: o.spec.homeNamespace })),
    workspaces.map((w) => ({
      namespace: w.metadata.namespace ?? '',
      name: w.metadata.name ?? '',
      organization: w.spec.organization,
    })),
    agents,
  );
  rc.audit = {
    resource: 'scopes',
    details: { organizations: view.organizations.length, workspaces: view.workspaces.length },
  };
  return view;
}

export const SCOPE_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/scopes',
    action: 'scope.list',
    summary: 'The organizations and workspaces the caller may pick as a tier, and which it may change',
    success: 200,
    response: SCOPES_VIEW,
    handle: scopes,
  },
];
