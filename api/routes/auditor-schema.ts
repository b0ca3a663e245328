// GET /v1/auditors/schema/{id}: the settings schema of a built-in or
// registered auditor, derived from its claims' settings (any authenticated
// caller, like the auditor list); 404 for an id that is neither.
import { auditorSettingsSchema } from '../registry/auditor-schema.ts';
import { notFound } from '../../base/http-error.ts';
import type { RouteCtx, RouteSpec } from './route.ts';
import { AUDITOR_SCHEMA } from './responses.ts';

function auditorSchema(rc: RouteCtx): Promise<unknown> {
  const id = rc.params.id ?? '';
  rc.audit = { resource: `auditors/${id}/schema` };
  const schema = auditorSettingsSchema(id, rc.deps.auditors.get(id));
  if (!schema) throw notFound(`no auditor ${id}: neither built in nor registered`);
  return Promise.resolve(schema);
}

export const AUDITOR_SCHEMA_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/v1/auditors/schema/{id}',
    action: 'auditor.list',
    summary: 'The settings schema of an auditor, derived from its claims’ settings',
    success: 200,
    response: AUDITOR_SCHEMA,
    handle: auditorSchema,
  },
];
