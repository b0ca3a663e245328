// /v1/audit: the audit log for administrators. Org administrators see every
// entry; workspace administrators the entries of their namespaces.
import { enumQuery, intQuery, patternQuery, stringQuery, timeQuery } from '../http/validate.ts';
import { NAMESPACE_PATTERN } from '../../contract/agent-id.ts';
import type { AuditFilter } from '../audit/log.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { AUDIT_PAGE, AUDIT_VERIFICATION } from './responses.ts';

function filterOf(rc: RouteCtx): AuditFilter {
  const q = rc.query;
  const filter: AuditFilter = { limit: intQuery(q, 'limit', { fallback: 100, min: 1, max: 1000 }) };
  for (const key of ['subject', 'action', 'resource'] as const) {
    const value = stringQuery(q, key, 256);
    if (value !== undefined) filter[key] = value;
  }
  const namespace = patternQuery(q, 'namespace', new RegExp(NAMESPACE_PATTERN));
  if (namespace !== undefined) filter.namespace = namespace;
  const outcome = enumQuery(q, 'outcome', ['allowed', 'denied', 'failed'] as const);
  if (outcome) filter.outcome = outcome;
  const since = timeQuery(q, 'since');
  const until = timeQuery(q, 'until');
  if (since !== undefined) filter.sinceMs = since;
  if (until !== undefined) filter.untilMs = until;
  if (q.before !== undefined) filter.beforeSeq = intQuery(q, 'before', { fallback: 1, min: 1, max: 2 ** 30 });
  if (!rc.principal.orgAdmin) filter.namespaces = rc.principal.workspaceAdminOf;
  return filter;
}

async function query(rc: RouteCtx): Promise<unknown> {
  const filter = filterOf(rc);
  const items = await rc.deps.audit.query(filter);
  rc.audit = { resource: 'audit', details: { returned: items.length } };
  const last = items.at(-1);
  return { items, ...(items.length === filter.limit && last ? { before: last.seq } : {}) };
}

/** Hashes the entries added since the last check; `full=true` walks the whole chain again. */
async function verify(rc: RouteCtx): Promise<unknown> {
  const full = enumQuery(rc.query, 'full', ['true', 'false'] as const) === 'true';
  rc.audit = { resource: 'audit', ...(full ? { details: { full } } : {}) };
  return rc.deps.audit.verify({ full });
}

export const AUDIT_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/audit',
    action: 'audit.query',
    summary: 'Audit entries, newest first',
    success: 200,
    response: AUDIT_PAGE,
    query: {
      subject: '',
      action: '',
      resource: '',
      namespace: '',
      outcome: 'allowed|denied|failed',
      since: 'RFC 3339',
      until: 'RFC 3339',
      limit: '1-1000',
      before: 'seq for paging',
    },
    handle: query,
  },
  {
    method: 'GET',
    path: '/v1/audit/verify',
    action: 'audit.verify',
    summary: 'Verify the hash chain (from the last check; full=true from the first entry)',
    success: 200,
    query: { full: 'true|false' },
    response: AUDIT_VERIFICATION,
    handle: verify,
  },
];
