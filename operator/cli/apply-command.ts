// The work of `platform apply -f <file|dir|->` (apply.ts declares the
// command): definition files and plain resources, applied with server-side
// apply. Every file is validated first (errors as
// `file:line:col: message` lines, exit 2, nothing sent); then every object is
// dry-run on the server (conflicts, CEL rules, missing namespaces: exit 1,
// nothing written); then applied in kind order, one kubectl-style line each.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { CliContext } from './context.ts';
import { EXIT, usageError } from './errors.ts';
import { render } from './output.ts';
import { unifiedDiff } from './apply-diff.ts';
import { readInputs } from './apply-input.ts';
import { KubeHttp, loadKubeconfig, type Obj } from './apply-kube.ts';
import { forDiff, forOutput, outcomeLine, outcomeOf } from './apply-outcome.ts';
import { applyObject, crdsMissing, plan, preflight, type ApplySettings, type Step } from './apply-run.ts';
import {
  errorLines,
  mentionsUnknownAuditor,
  validateInputs,
  type InputFile,
  type Validated,
} from './apply-validate.ts';
import { PLURAL } from '../../contract/kube.ts';

export interface ApplyFlags {
  filename: string[];
  recursive?: boolean;
  dryRun?: string | boolean;
  diff?: boolean;
  namespace?: string;
  fieldManager: string;
  forceConflicts?: boolean;
  kubeconfig?: string;
}

/** `--dry-run` alone means `server`; `none` (the default) applies. */
export function dryRunOf(value: string | boolean | undefined): boolean {
  if (value === undefined || value === 'none') return false;
  if (value === true || value === 'server') return true;
  throw usageError(
    `invalid --dry-run '${String(value)}'`,
    'use --dry-run=server or --dry-run=none (no client-side dry run)',
  );
}

/** The auditor ids registered on the cluster (AuditorRegistration spec.auditorId). */
async function clusterAuditors(http: KubeHttp): Promise<string[]> {
  const reply = await http.request('GET', `/apis/platform.io/v1alpha1/${PLURAL.auditor}`);
  if (reply.status === 404) throw crdsMissing(http.server);
  if (reply.status !== 200) return [];
  const items = Array.isArray(reply.body.items) ? (reply.body.items as Obj[]) : [];
  return items
    .map((i) => (i.spec as { auditorId?: unknown } | undefined)?.auditorId)
    .filter((id): id is string => typeof id === 'string');
}

/** Validates the input; auditors unknown locally are looked up among the cluster's registrations. */
async function validated(files: InputFile[], cluster: () => KubeHttp): Promise<Validated> {
  const first = validateInputs(files);
  if (!mentionsUnknownAuditor(first.errors)) return first;
  return validateInputs(files, await clusterAuditors(cluster()));
}

function printDiffs(ctx: CliContext, steps: readonly Step[]): number {
  let changed = false;
  for (const s of steps) {
    const after = s.unchecked ? s.p.body : s.preview;
    const text = (o: Obj | undefined): string => (o ? stringify(forDiff(o), { lineWidth: 0 }) : '');
    const diff = unifiedDiff(text(s.live), text(after), {
      from: `${s.p.ref} (live)`,
      to: `${s.p.ref} (after apply)`,
    });
    if (s.unchecked)
      ctx.note(`note: ${s.p.ref}: its namespace ${s.p.namespace} does not exist yet; shown as written`);
    if (diff) ctx.out(diff);
    changed ||= diff !== '';
  }
  return changed ? EXIT.failed : EXIT.ok;
}

function printList(ctx: CliContext, objects: readonly Obj[]): void {
  if (ctx.format === 'table') return;
  const list = { apiVersion: 'v1', kind: 'List', items: objects.map(forOutput) };
  ctx.out(render(ctx.format, list, { rows: [], columns: [] }));
}

function printDryRun(ctx: CliContext, steps: readonly Step[]): number {
  for (const s of steps) {
    if (s.unchecked)
      ctx.note(
        `note: ${s.p.ref}: its namespace ${s.p.namespace} does not exist yet, so the server could not check it`,
      );
    if (ctx.format === 'table')
      ctx.out(outcomeLine(s.p.ref, s.preview ? outcomeOf(s.live, s.preview) : 'created', true));
  }
  printList(
    ctx,
    steps.map((s) => s.preview ?? s.p.body),
  );
  return EXIT.ok;
}

async function applyAll(
  ctx: CliContext,
  http: KubeHttp,
  steps: readonly Step[],
  settings: ApplySettings,
): Promise<number> {
  const applied: Obj[] = [];
  let code: number = EXIT.ok;
  for (const s of steps) {
    const r = await applyObject(http, s.p, settings, false);
    if (!r.ok) {
      ctx.note(`platform: ${r.error.line()}`);
      if (code === EXIT.ok) code = r.error.exitCode;
      continue;
    }
    applied.push(r.object);
    if (ctx.format === 'table') ctx.out(outcomeLine(s.p.ref, outcomeOf(s.live, r.object), false));
  }
  printList(ctx, applied);
  return code;
}

/** Every server refusal of the dry run, one line each; the exit code of the first. */
function refused(ctx: CliContext, steps: readonly Step[]): number | undefined {
  const errors = steps.flatMap((s) => (s.error ? [s.error] : []));
  for (const e of errors) ctx.note(`platform: ${e.line()}`);
  if (errors.length > 0 && steps.length > 1) ctx.note('platform: nothing was applied');
  return errors[0]?.exitCode;
}

export async function apply(ctx: CliContext, flags: ApplyFlags): Promise<number> {
  const dryRun = dryRunOf(flags.dryRun);
  const files = readInputs(flags.filename, flags.recursive === true, () => readFileSync(0, 'utf8'));
  let http: KubeHttp | undefined;
  const cluster = (): KubeHttp => (http ??= new KubeHttp(loadKubeconfig(flags.kubeconfig)));
  const { objects, errors } = await validated(files, cluster);
  if (errors.length > 0) {
    for (const line of errorLines(errors)) ctx.note(line);
    return EXIT.usage;
  }
  if (objects.length === 0) throw usageError(`no objects to apply in ${flags.filename.join(', ')}`);
  const kube = cluster();
  const settings: ApplySettings = { fieldManager: flags.fieldManager, force: flags.forceConflicts === true };
  const planned = await plan(kube, objects, flags.namespace ?? kube.contextNamespace);
  const steps = await preflight(kube, planned, settings);
  const refusal = refused(ctx, steps);
  if (refusal !== undefined) return refusal;
  if (flags.diff) return printDiffs(ctx, steps);
  if (dryRun) return printDryRun(ctx, steps);
  return applyAll(ctx, kube, steps, settings);
}
