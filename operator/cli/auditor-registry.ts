// `platform auditor register | list | schema`: the Verifier's auditor registry
// (POST /v1/auditors/register, GET /v1/auditors, GET /v1/auditors/schema/{id}).
import type { CliContext } from './context.ts';
import { EXIT } from './errors.ts';
import { render, type Column } from './output.ts';
import {
  auditorRegistration,
  schemaRows,
  type AuditorRegisterFlags,
  type SchemaRow,
  type SettingsSchema,
} from './auditor-view.ts';

export interface AuditorListItem {
  auditor_id: string;
  name?: string;
  builtin?: boolean;
  deployment_mode?: string;
  endpoint?: string | null;
  health?: string | null;
  trust_tier?: string;
  claims?: { name: string; type?: string }[];
}

export async function registerAuditor(ctx: CliContext, flags: AuditorRegisterFlags): Promise<number> {
  const body = auditorRegistration(flags);
  const { body: answer } = await ctx.client().post<{
    registered: boolean;
    auditor_id: string;
    vocabulary_synced: boolean;
  }>('/v1/auditors/register', body);
  ctx.out(
    ctx.format === 'table'
      ? `auditor ${answer.auditor_id} registered (vocabulary ${answer.vocabulary_synced ? 'synced' : 'not synced'})`
      : render(ctx.format, answer, { rows: [], columns: [] }),
  );
  return EXIT.ok;
}

export async function listAuditors(ctx: CliContext): Promise<AuditorListItem[]> {
  const { body } = await ctx.client().get<{ items: AuditorListItem[] }>('/v1/auditors');
  return body.items;
}

const HEALTH = (a: AuditorListItem): string => a.health ?? (a.builtin ? 'built-in' : 'unknown');

const LIST_COLUMNS: Column<AuditorListItem>[] = [
  { header: 'id', value: (a) => a.auditor_id },
  { header: 'name', value: (a) => a.name },
  { header: 'mode', value: (a) => a.deployment_mode },
  { header: 'health', value: HEALTH },
  { header: 'tier', value: (a) => a.trust_tier },
  { header: 'claims', value: (a) => (a.claims ?? []).map((c) => c.name) },
];

export async function listCommand(ctx: CliContext): Promise<number> {
  const items = await listAuditors(ctx);
  ctx.out(render(ctx.format, { items }, { rows: items, columns: LIST_COLUMNS }));
  return EXIT.ok;
}

const SCHEMA_COLUMNS: Column<SchemaRow>[] = [
  { header: 'claim', value: (r) => r.claim },
  { header: 'setting', value: (r) => r.key },
  { header: 'type', value: (r) => r.type },
  { header: 'default', value: (r) => r.default },
  { header: 'bounds', value: (r) => r.bounds },
];

export async function schemaCommand(ctx: CliContext, id: string): Promise<number> {
  const { body } = await ctx.client().get<SettingsSchema>(`/v1/auditors/schema/${encodeURIComponent(id)}`);
  const rows = schemaRows(body);
  if (ctx.format === 'table' && rows.length === 0) {
    ctx.out(`auditor ${body.auditor_id} declares no settings`);
    return EXIT.ok;
  }
  ctx.out(render(ctx.format, body, { rows, columns: SCHEMA_COLUMNS }));
  return EXIT.ok;
}
