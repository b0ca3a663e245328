// Pure parts of `platform auditor` and `platform model`: check lines, the
// settings-schema table, and the registration bodies built from flags.
import { readFileSync } from 'node:fs';
import { usageError } from './errors.ts';

export interface Check {
  id: string;
  ok: boolean;
  skipped?: boolean;
  problems: string[];
  /** What a passing check found, shown after it (e.g. the model list). */
  note?: string;
}

/** `PASS  health`, `FAIL  claims.request: …`, `SKIP  batch`: one line per check. */
export function checkLines(checks: readonly Check[]): string {
  return checks
    .map((c) => {
      if (c.skipped) return `SKIP  ${c.id}`;
      if (c.ok) return `PASS  ${c.id}${c.note ? ` (${c.note})` : ''}`;
      return `FAIL  ${c.id}: ${c.problems.join('; ')}`;
    })
    .join('\n');
}

/** `12 checks: 11 passed, 1 failed, 0 skipped`. */
export function checkSummary(checks: readonly Check[]): string {
  const skipped = checks.filter((c) => c.skipped).length;
  const failed = checks.filter((c) => !c.ok).length;
  const passed = checks.length - skipped - failed;
  return `${checks.length} checks: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

export interface SettingsSchema {
  auditor_id: string;
  builtin?: boolean;
  claims: {
    name: string;
    type: string;
    settings: { key: string; type: string; default: unknown; min?: number; max?: number; step?: number }[];
  }[];
}

export interface SchemaRow {
  claim: string;
  key: string;
  type: string;
  default: unknown;
  bounds: string;
}

/** `0–1 (step 0.05)`, `≥ 0`, `≤ 10`, or '' when the setting has none. */
export function boundsOf(s: { min?: number; max?: number; step?: number }): string {
  const range =
    s.min !== undefined && s.max !== undefined
      ? `${s.min}–${s.max}`
      : s.min !== undefined
        ? `≥ ${s.min}`
        : s.max !== undefined
          ? `≤ ${s.max}`
          : '';
  return s.step !== undefined && range ? `${range} (step ${s.step})` : range;
}

/** One row per claim setting: what `auditor schema -o table` shows. */
export function schemaRows(schema: SettingsSchema): SchemaRow[] {
  return schema.claims.flatMap((c) =>
    c.settings.map((s) => ({
      claim: c.name,
      key: s.key,
      type: s.type,
      default: Array.isArray(s.default)
        ? `[${s.default.join(', ')}]`
        : s.default === null
          ? 'null'
          : s.default,
      bounds: boundsOf(s),
    })),
  );
}

export interface AuthFlags {
  auth?: string;
  certFile?: string;
  secret?: string;
}

export type AuthBody =
  | { type: 'none' }
  | { type: 'mtls'; cert_pem: string }
  | { type: 'api_key'; secret_ref: { name: string; key: string } };

/** The `auth` object of a registration from --auth, --cert-file and --secret; undefined when none is given. */
export function authBody(
  flags: AuthFlags,
  read = (p: string) => readFileSync(p, 'utf8'),
): AuthBody | undefined {
  switch (flags.auth) {
    case undefined:
      return undefined;
    case 'none':
      return { type: 'none' };
    case 'mtls': {
      if (!flags.certFile) throw usageError('--auth mtls needs --cert-file <PEM file>');
      let pem: string;
      try {
        pem = read(flags.certFile);
      } catch {
        throw usageError(`cannot read --cert-file ${flags.certFile}`);
      }
      return { type: 'mtls', cert_pem: pem };
    }
    case 'api_key': {
      const m = /^([a-z0-9][-a-z0-9.]*)\/([-._a-zA-Z0-9]+)$/.exec(flags.secret ?? '');
      if (!m) throw usageError('--auth api_key needs --secret <secret name>/<key>');
      return { type: 'api_key', secret_ref: { name: m[1]!, key: m[2]! } };
    }
    default:
      throw usageError(`unknown --auth '${flags.auth}'`, 'use none, mtls or api_key');
  }
}

export const DEPLOYMENT_MODES = ['sidecar', 'in-cluster', 'external'] as const;

function oneOf(flag: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value))
    throw usageError(`unknown ${flag} '${value}'`, `use ${allowed.join(', ')}`);
}

const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;

function checkDigest(digest: string | undefined): void {
  if (digest !== undefined && !DIGEST_RE.test(digest))
    throw usageError(`invalid --digest '${digest}'`, 'use sha256:<64 lower-case hex characters>');
}

/** Where it runs: an endpoint, or (a sidecar) an image. */
function placementProblem(mode: string | undefined, endpoint?: string, image?: string): void {
  if (!endpoint && !image) throw usageError('give --endpoint <url> or --image <ref>');
  if (mode === 'sidecar' && !image) throw usageError('a sidecar is registered with --image');
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint))
    throw usageError(`invalid --endpoint '${endpoint}'`, 'use http(s)://host:port');
}

export interface AuditorRegisterFlags extends AuthFlags {
  id: string;
  name?: string;
  mode?: string;
  endpoint?: string;
  image?: string;
  digest?: string;
  vocabularyUrl?: string;
  phases?: string;
  category?: string;
  catalogPhase?: string;
  workspace?: string[];
  healthInterval?: string;
}

function intervalOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!(Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600))
    throw usageError(`invalid --health-interval '${value}'`, 'use whole seconds, 1–3600');
  return seconds;
}

const defined = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

/** The POST /v1/auditors/register body the flags describe. */
export function auditorRegistration(flags: AuditorRegisterFlags): Record<string, unknown> {
  oneOf('--mode', flags.mode, DEPLOYMENT_MODES);
  checkDigest(flags.digest);
  placementProblem(flags.mode, flags.endpoint, flags.image);
  const interval = intervalOf(flags.healthInterval);
  const endpoint = flags.endpoint?.replace(/\/+$/, '');
  const vocabularyUrl =
    flags.mode === 'sidecar' ? undefined : (flags.vocabularyUrl ?? (endpoint && `${endpoint}/vocabulary`));
  return defined({
    auditor_id: flags.id,
    display_name: flags.name,
    deployment_mode: flags.mode,
    endpoint,
    image: flags.image,
    image_digest: flags.digest,
    vocabulary_url: vocabularyUrl,
    supported_phases: flags.phases?.split(',').map((p) => p.trim()),
    category: flags.category,
    phase: flags.catalogPhase,
    workspaces: flags.workspace?.length ? flags.workspace : undefined,
    health_check_interval: interval,
    auth: authBody(flags),
  });
}

export interface ModelRegisterFlags extends AuthFlags {
  id: string;
  mode: string;
  endpoint?: string;
  type?: string;
  image?: string;
  digest?: string;
}

export const MODEL_TYPES = ['chat', 'completion', 'embedding', 'classifier'] as const;

/** The POST /v1/models/register body the flags describe. */
export function modelRegistration(flags: ModelRegisterFlags): Record<string, unknown> {
  oneOf('--mode', flags.mode, DEPLOYMENT_MODES);
  oneOf('--type', flags.type, MODEL_TYPES);
  checkDigest(flags.digest);
  placementProblem(flags.mode, flags.endpoint, flags.image);
  return defined({
    model_id: flags.id,
    deployment_mode: flags.mode,
    model_type: flags.type,
    endpoint: flags.endpoint?.replace(/\/+$/, ''),
    image: flags.image,
    image_digest: flags.digest,
    auth: authBody(flags),
  });
}
