// `platform policy push`: each policy of the file saved through
// `/v1/policies` (org policies first, so a workspace policy is checked
// against the org policies it comes with): created (POST) when the Verifier
// has none of that id, replaced (PUT) when its spec differs, left alone when
// it is the same. The Verifier checks enforcement modes and the Cedar
// compile; its refusal (422) is shown with its detail as it is.
import { isDeepStrictEqual } from 'node:util';
import { validateResource } from '../../crds/validators.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import type { CliContext } from './context.ts';
import { EXIT } from './errors.ts';
import { render } from './output.ts';
import type { PolicyDoc } from './policy-file.ts';

export interface PushRow {
  policy_id: string;
  action: 'created' | 'configured' | 'unchanged';
  version: string;
}

const withoutVersion = (spec: PolicyRecord['spec']): Record<string, unknown> => {
  const { version: _v, ...rest } = spec;
  return rest;
};

/** The spec as the apiserver stores it: the CRD's defaults filled in (`enforcement: unlocked`, …). */
function defaulted(doc: PolicyDoc): PolicyRecord['spec'] {
  const checked = validateResource<{ spec: PolicyRecord['spec'] }>(doc.value, { applyDefaults: true });
  return checked.valid ? checked.value.spec : doc.record.spec;
}

async function pushOne(ctx: CliContext, doc: PolicyDoc): Promise<PushRow> {
  const client = ctx.client();
  const path = `/v1/policies/${encodeURIComponent(doc.id)}`;
  const current = await client.get<PolicyRecord>(path, { accept: [404] });
  const spec = doc.record.spec;
  if (current.status === 404) {
    const { body } = await client.post<PolicyRecord>('/v1/policies', { id: doc.id, spec });
    return { policy_id: doc.id, action: 'created', version: body.version };
  }
  if (isDeepStrictEqual(withoutVersion(current.body.spec), withoutVersion(defaulted(doc))))
    return { policy_id: doc.id, action: 'unchanged', version: current.body.version };
  const { body } = await client.request<PolicyRecord>('PUT', path, { body: { spec } });
  return { policy_id: doc.id, action: 'configured', version: body.version };
}

export async function pushPolicies(ctx: CliContext, docs: PolicyDoc[]): Promise<number> {
  const ordered = [
    ...docs.filter((d) => d.record.spec.scope === 'org'),
    ...docs.filter((d) => d.record.spec.scope !== 'org'),
  ];
  const rows: PushRow[] = [];
  for (const doc of ordered) {
    const row = await pushOne(ctx, doc);
    rows.push(row);
    if (ctx.format === 'table') ctx.out(`policy ${row.policy_id} ${row.action} (version ${row.version})`);
  }
  if (ctx.format !== 'table') ctx.out(render(ctx.format, { items: rows }, { rows, columns: [] }));
  return EXIT.ok;
}
