// `platform auditor test` (the whole conformance suite, against a URL or a
// local project it starts) and `platform auditor verify` (an auditor in
// service: health, vocabulary, claims, its registration, and its image's
// labels and user from a Dockerfile or an OCI image configuration).
import { readFileSync } from 'node:fs';
import { auditorImageProblems } from '../../auditors/conformance/dockerfile.ts';
import { imageConfigProblems } from '../../auditors/conformance/image-config.ts';
import { runConformance, type ConformanceReport } from '../../auditors/conformance/suite.ts';
import { freeLoopbackPort, localProject, startLocal, waitListening } from './auditor-local.ts';
import { listAuditors, type AuditorListItem } from './auditor-registry.ts';
import { checkLines, checkSummary, type Check } from './auditor-view.ts';
import type { CliContext } from './context.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { render } from './output.ts';

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** Fails fast (exit 4) when nothing answers at `url` at all, rather than waiting for readiness. */
export async function probe(url: string): Promise<void> {
  const base = url.replace(/\/+$/, '');
  try {
    await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new CliError(
      `cannot reach the auditor at ${base}: ${cause ?? (err as Error).message}`,
      EXIT.unreachable,
      'check the URL and that the auditor is running',
    );
  }
}

function readyTimeoutOf(value: string | undefined): number {
  const seconds = Number(value ?? '60');
  if (!(Number.isFinite(seconds) && seconds > 0))
    throw usageError(`invalid --ready-timeout '${value}'`, 'give seconds, e.g. 60');
  return Math.round(seconds * 1000);
}

interface Outcome {
  target: string;
  auditorId?: string | undefined;
  passed: boolean;
  checks: Check[];
}

/** Prints the outcome (check lines and a summary, or the whole object) and answers its exit code. */
function report(ctx: CliContext, outcome: Outcome): number {
  if (ctx.format === 'table') {
    ctx.out(checkLines(outcome.checks));
    const who = outcome.auditorId ? `${outcome.auditorId} at ${outcome.target}` : outcome.target;
    ctx.out(`${outcome.passed ? 'PASSED' : 'FAILED'} ${who}: ${checkSummary(outcome.checks)}`);
  } else ctx.out(render(ctx.format, outcome, { rows: [], columns: [] }));
  return outcome.passed ? EXIT.ok : EXIT.failed;
}

const outcomeOf = (r: ConformanceReport, extra: Check[] = []): Outcome => {
  const checks = [...r.checks, ...extra];
  return { target: r.baseUrl, auditorId: r.auditorId, passed: checks.every((c) => c.ok), checks };
};

/** Runs `fn` against the auditor in `dir`, started on a free loopback port and stopped afterwards. */
async function withLocal<T>(dir: string, readyMs: number, fn: (url: string) => Promise<T>): Promise<T> {
  const project = localProject(dir);
  const local = startLocal(project, { port: await freeLoopbackPort(), stdio: 'pipe' });
  try {
    await waitListening(local, readyMs);
    return await fn(local.url);
  } finally {
    await local.stop();
  }
}

export async function testCommand(
  ctx: CliContext,
  target: string,
  flags: { readyTimeout?: string },
): Promise<number> {
  const readyTimeoutMs = readyTimeoutOf(flags.readyTimeout);
  const run = (url: string): Promise<ConformanceReport> => runConformance(url, { readyTimeoutMs });
  if (isUrl(target)) await probe(target);
  const result = isUrl(target) ? await run(target) : await withLocal(target, readyTimeoutMs, run);
  return report(ctx, outcomeOf(result));
}

/** Served and registered claims agree: every registered claim is served with its type, and no served one is missing. */
export function registryCheck(item: AuditorListItem, served: ConformanceReport['vocabulary']): Check {
  const id = 'registry.claims';
  if (!served) return { id, ok: false, problems: ['no vocabulary to compare with the registration'] };
  const byName = new Map(served.vocabulary.map((v) => [v.name, v.type]));
  const registered = item.claims ?? [];
  const problems = registered.flatMap((c) => {
    const type = byName.get(c.name);
    if (type === undefined) return [`registered claim ${c.name} is not served`];
    return c.type && c.type !== type ? [`claim ${c.name} is served as ${type}, registered as ${c.type}`] : [];
  });
  const names = new Set(registered.map((c) => c.name));
  const unregistered = [...byName.keys()].filter((n) => !names.has(n));
  if (unregistered.length > 0)
    problems.push(`served but not registered: ${unregistered.join(', ')} (register again to sync)`);
  return { id, ok: problems.length === 0, problems };
}

function readText(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw usageError(`cannot read ${flag} ${path}`);
  }
}

/** The image rules as two checks: the labels, and the user. */
function imageChecks(prefix: string, problems: string[]): Check[] {
  const labels = problems.filter((p) => p.startsWith('label '));
  const rest = problems.filter((p) => !p.startsWith('label '));
  const user = rest.filter((p) => / runs as /.test(p));
  const other = rest.filter((p) => !/ runs as /.test(p));
  return [
    { id: `${prefix}.labels`, ok: labels.length + other.length === 0, problems: [...other, ...labels] },
    { id: `${prefix}.user`, ok: user.length + other.length === 0, problems: [...other, ...user] },
  ];
}

export function fileChecks(flags: VerifyFlags): Check[] {
  const checks: Check[] = [];
  if (flags.dockerfile)
    checks.push(
      ...imageChecks('dockerfile', auditorImageProblems(readText(flags.dockerfile, '--dockerfile'))),
    );
  if (flags.imageConfig) {
    let json: unknown;
    try {
      json = JSON.parse(readText(flags.imageConfig, '--image-config'));
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw usageError(`--image-config ${flags.imageConfig} is not valid JSON`);
    }
    checks.push(...imageChecks('image_config', imageConfigProblems(json)));
  }
  return checks;
}

export interface VerifyFlags {
  url?: string;
  dockerfile?: string;
  imageConfig?: string;
}

/** The registered auditor `id` and the URL it is checked at (--url, else its endpoint). */
async function registered(
  ctx: CliContext,
  id: string,
  url?: string,
): Promise<{ item: AuditorListItem; base: string }> {
  const item = (await listAuditors(ctx)).find((a) => a.auditor_id === id);
  if (!item)
    throw new CliError(
      `no auditor ${id}: neither built in nor registered`,
      EXIT.failed,
      'see `platform auditor list`',
    );
  const base = url ?? item.endpoint ?? undefined;
  if (!base)
    throw usageError(
      `auditor ${id} has no endpoint (${item.deployment_mode ?? 'sidecar'}: it runs in each pod)`,
      'give the URL it answers at with --url',
    );
  return { item, base };
}

export async function verifyCommand(
  ctx: CliContext,
  target: string | undefined,
  flags: VerifyFlags,
): Promise<number> {
  if (!target && !flags.dockerfile && !flags.imageConfig)
    throw usageError('nothing to verify', 'give an auditor id or URL, --dockerfile or --image-config');
  const files = fileChecks(flags);
  if (!target) return report(ctx, { target: 'files', passed: files.every((c) => c.ok), checks: files });
  const { item, base } = isUrl(target)
    ? { item: undefined, base: target }
    : await registered(ctx, target, flags.url);
  await probe(base);
  const result = await runConformance(base, { scope: 'core', readyTimeoutMs: 10_000 });
  const extra = item ? [registryCheck(item, result.vocabulary), ...files] : files;
  return report(ctx, outcomeOf(result, extra));
}
