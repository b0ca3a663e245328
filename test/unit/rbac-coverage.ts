// Used versus granted: the requests an apiserver audit log records for one
// impersonated ServiceAccount, against the RBAC rules config/rbac binds to it.
// A grant is one (apiGroup, resource[/subresource], verb) of a rule, scoped to
// the cluster (ClusterRole through a ClusterRoleBinding) or to one namespace
// (a Role), and limited to resourceNames when the rule names them.
import type { K8sObject } from './kustomize-tree.ts';

/** The fields of an audit.k8s.io/v1 Event this check reads. */
export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  user?: { username?: string };
  impersonatedUser?: { username?: string };
  objectRef?: {
    resource?: string;
    subresource?: string;
    namespace?: string;
    name?: string;
    apiGroup?: string;
  };
  responseStatus?: { code?: number };
  annotations?: Record<string, string>;
}

/** One authorized (or refused) request of a user. */
export interface Access {
  verb: string;
  group: string;
  /** `pods` or `pods/exec`. */
  resource: string;
  namespace?: string;
  name?: string;
  code: number;
  forbidden: boolean;
  uri: string;
}

export interface Grant {
  group: string;
  resource: string;
  verb: string;
  /** The Role's namespace; undefined for a ClusterRole bound cluster-wide. */
  namespace?: string;
  resourceNames?: string[];
  /** `ClusterRole/platform-operator` or `Role/platform-system/platform-webhook`. */
  from: string;
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}
interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}
type RbacObject = K8sObject & {
  rules?: Rule[];
  roleRef?: { kind: string; name: string };
  subjects?: Subject[];
};

/** The ServiceAccount user name Kubernetes authenticates a pod's token as. */
export const serviceAccountUser = (namespace: string, name: string): string =>
  `system:serviceaccount:${namespace}:${name}`;

/**
 * Parses a JSON-lines audit log into events, one per request: the last stage
 * written for each audit ID (a watch logs ResponseStarted, and ResponseComplete
 * only when it ends).
 */
export function parseAuditLog(text: string): AuditEvent[] {
  const byId = new Map<string, AuditEvent>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as AuditEvent;
    if (event.stage === 'RequestReceived' && byId.has(event.auditID)) continue;
    byId.set(event.auditID, event);
  }
  return [...byId.values()];
}

function isForbidden(e: AuditEvent): boolean {
  return e.responseStatus?.code === 403 || e.annotations?.['authorization.k8s.io/decision'] === 'forbid';
}

function accessOf(e: AuditEvent): Access {
  const ref = e.objectRef ?? {};
  const access: Access = {
    verb: e.verb,
    group: ref.apiGroup ?? '',
    resource: ref.subresource ? `${ref.resource}/${ref.subresource}` : String(ref.resource),
    code: e.responseStatus?.code ?? 0,
    forbidden: isForbidden(e),
    uri: e.requestURI,
  };
  if (ref.namespace) access.namespace = ref.namespace;
  if (ref.name) access.name = ref.name;
  return access;
}

/** The resource requests made as `user` (through impersonation); non-resource URLs (discovery) are left out. */
export function accessesOf(events: AuditEvent[], user: string): Access[] {
  return events.filter((e) => e.impersonatedUser?.username === user && e.objectRef?.resource).map(accessOf);
}

/** The refused requests of `user`, resource or not. */
export function forbiddenOf(events: AuditEvent[], user: string): AuditEvent[] {
  return events.filter((e) => e.impersonatedUser?.username === user && isForbidden(e));
}

function boundTo(binding: RbacObject, namespace: string, name: string): boolean {
  return (binding.subjects ?? []).some(
    (s) => s.kind === 'ServiceAccount' && s.name === name && s.namespace === namespace,
  );
}

function expandRule(rule: Rule, scope: string | undefined, from: string): Grant[] {
  const names = rule.resourceNames?.length ? { resourceNames: rule.resourceNames } : {};
  return (rule.apiGroups ?? []).flatMap((group) =>
    (rule.resources ?? []).flatMap((resource) =>
      (rule.verbs ?? []).map((verb) => ({
        group,
        resource,
        verb,
        ...(scope ? { namespace: scope } : {}),
        ...names,
        from,
      })),
    ),
  );
}

function expandRules(role: RbacObject, scope: string | undefined, from: string): Grant[] {
  return (role.rules ?? []).flatMap((rule) => expandRule(rule, scope, from));
}

/** Every grant the bindings in `objects` give the ServiceAccount `namespace/name`. */
export function grantsOf(objects: K8sObject[], namespace: string, name: string): Grant[] {
  const rbac = objects as RbacObject[];
  const find = (kind: string, roleName: string, ns?: string): RbacObject | undefined =>
    rbac.find((o) => o.kind === kind && o.metadata.name === roleName && o.metadata.namespace === ns);
  const grants: Grant[] = [];
  for (const binding of rbac) {
    if (!['ClusterRoleBinding', 'RoleBinding'].includes(binding.kind) || !boundTo(binding, namespace, name))
      continue;
    const ref = binding.roleRef!;
    const scope = binding.kind === 'RoleBinding' ? binding.metadata.namespace : undefined;
    const role = find(ref.kind, ref.name, ref.kind === 'Role' ? scope : undefined);
    if (!role)
      throw new Error(`${binding.kind} ${binding.metadata.name} names a missing ${ref.kind} ${ref.name}`);
    const from = ref.kind === 'Role' ? `Role/${scope}/${ref.name}` : `ClusterRole/${ref.name}`;
    grants.push(...expandRules(role, scope, from));
  }
  return grants;
}

/** Whether `grant` authorizes `access` (RBAC's own matching, without wildcards: config/rbac has none). */
export function authorizes(grant: Grant, access: Access): boolean {
  if (grant.group !== access.group || grant.resource !== access.resource || grant.verb !== access.verb)
    return false;
  if (grant.namespace !== undefined && grant.namespace !== access.namespace) return false;
  return !grant.resourceNames || (access.name !== undefined && grant.resourceNames.includes(access.name));
}

export interface Coverage {
  /** Each grant with the number of requests it authorized. */
  grants: { grant: Grant; uses: number }[];
  /** Requests no grant authorizes (allowed, if at all, by a default role such as system:basic-user). */
  ungranted: Access[];
}

export function coverage(grants: Grant[], accesses: Access[]): Coverage {
  return {
    grants: grants.map((grant) => ({ grant, uses: accesses.filter((a) => authorizes(grant, a)).length })),
    ungranted: accesses.filter((a) => !grants.some((g) => authorizes(g, a))),
  };
}

export const grantKey = (g: Grant): string =>
  `${g.from} ${g.group || 'core'} ${g.resource}${g.resourceNames ? `[${g.resourceNames.join(',')}]` : ''} ${g.verb}`;

/** The used-versus-granted table of one role, one grant a line, unused ones marked. */
export function formatCoverage(role: string, c: Coverage): string {
  const rows = c.grants.map(
    ({ grant, uses }) => `  ${uses > 0 ? String(uses).padStart(5) : ' UNUSED'}  ${grantKey(grant)}`,
  );
  const extra = c.ungranted.map((a) => `  UNGRANTED ${a.verb} ${a.group || 'core'} ${a.resource} ${a.uri}`);
  return [
    `${role}: ${c.grants.filter((g) => g.uses > 0).length}/${c.grants.length} grants used`,
    ...rows,
    ...extra,
  ].join('\n');
}
