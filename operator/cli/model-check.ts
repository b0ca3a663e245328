// `platform model verify` (a registered model answers at its endpoint, lists
// its id, and its image digest is the one expected and notarized) and
// `platform model test` (a sample request through a gateway's POST
// /v1/evaluate: the decision and its reasons).
import { checkLines, checkSummary, type Check } from './auditor-view.ts';
import type { CliContext } from './context.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { render, type Column } from './output.ts';

export interface ModelItem {
  name?: string;
  model_id: string;
  model_type?: string | null;
  deployment_mode?: string;
  endpoint?: string | null;
  image?: string | null;
  image_digest?: string | null;
}

interface Answer {
  status: number;
  body: unknown;
}

const causeOf = (err: unknown): string =>
  (err as Error).name === 'TimeoutError'
    ? 'no answer in time'
    : ((err as { cause?: { code?: string; message?: string } }).cause?.code ??
      (err as { cause?: { message?: string } }).cause?.message ??
      (err as Error).message);

/** GET or POST JSON; a network failure is thrown as it is, for the caller to word. */
async function call(url: string, body?: unknown, timeoutMs = 10_000): Promise<Answer> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

/** The `/models` URLs to try: `<endpoint>/models`, then `<endpoint>/v1/models` for a base without /v1. */
export function modelsUrls(endpoint: string): string[] {
  const base = endpoint.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? [`${base}/models`] : [`${base}/models`, `${base}/v1/models`];
}

/** The ids an OpenAI-style `/models` answer lists; undefined when it is not one. */
export function listedIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
}

async function fetchModels(endpoint: string): Promise<{ url: string; answer?: Answer; error?: string }> {
  let last: { url: string; answer?: Answer; error?: string } = { url: endpoint };
  for (const url of modelsUrls(endpoint)) {
    try {
      last = { url, answer: await call(url) };
    } catch (err) {
      return { url, error: causeOf(err) };
    }
    if (last.answer?.status !== 404) return last;
  }
  return last;
}

type Fetched = Awaited<ReturnType<typeof fetchModels>>;

function reachCheck(got: Fetched): Check {
  const id = 'endpoint.models';
  const status = got.answer?.status;
  if (got.error) return { id, ok: false, problems: [`cannot reach ${got.url}: ${got.error}`] };
  if (status === 401 || status === 403)
    return { id, ok: true, problems: [], note: `${got.url} answers ${status}: it needs credentials` };
  if (status !== 200) return { id, ok: false, problems: [`${got.url} answered HTTP ${status}`] };
  const ids = listedIds(got.answer?.body);
  return { id, ok: true, problems: [], note: `${got.url}: ${ids ? `${ids.length} models` : 'answered'}` };
}

function listedCheck(got: Fetched, modelId: string): Check {
  const id = 'endpoint.lists_model';
  const ids = got.answer?.status === 200 ? listedIds(got.answer.body) : undefined;
  if (!ids) return { id, ok: true, skipped: true, problems: [] };
  return ids.includes(modelId)
    ? { id, ok: true, problems: [] }
    : { id, ok: false, problems: [`${modelId} is not among ${ids.join(', ') || '(none)'}`] };
}

/** Reachability of `<endpoint>/models`, and whether it lists the model. */
export async function endpointChecks(endpoint: string, modelId: string): Promise<Check[]> {
  const got = await fetchModels(endpoint);
  return [reachCheck(got), listedCheck(got, modelId)];
}

/** The registered digest is the one expected (--digest) and notarized at the Verifier. */
async function digestChecks(
  ctx: CliContext,
  model: ModelItem,
  expected: string | undefined,
): Promise<Check[]> {
  const registered = model.image_digest ?? undefined;
  const checks: Check[] = [];
  if (expected !== undefined) {
    const ok = registered === expected;
    checks.push({
      id: 'digest.matches',
      ok,
      problems: ok ? [] : [`registered ${registered ?? 'no digest'}, expected ${expected}`],
    });
  }
  if (registered) {
    const { body } = await ctx
      .client()
      .get<{ notarized: boolean }>(`/registry/check?digest=${encodeURIComponent(registered)}`);
    checks.push({
      id: 'digest.notarized',
      ok: body.notarized,
      problems: body.notarized ? [] : [`${registered} is not notarized (strict admission refuses it)`],
    });
  }
  return checks;
}

export async function verifyModel(
  ctx: CliContext,
  id: string,
  flags: { digest?: string; url?: string },
): Promise<number> {
  if (flags.digest !== undefined && !/^sha256:[a-f0-9]{64}$/.test(flags.digest))
    throw usageError(`invalid --digest '${flags.digest}'`, 'use sha256:<64 lower-case hex characters>');
  const { body } = await ctx.client().get<{ items: ModelItem[] }>('/v1/models');
  const model = body.items.find((m) => m.model_id === id || m.name === id);
  if (!model) throw new CliError(`no model ${id} is registered`, EXIT.failed, 'see `platform model list`');
  const endpoint = flags.url ?? model.endpoint ?? undefined;
  const checks = [
    ...(endpoint
      ? await endpointChecks(endpoint, model.model_id)
      : [{ id: 'endpoint.models', ok: true, skipped: true, problems: [] }]),
    ...(await digestChecks(ctx, model, flags.digest)),
  ];
  const passed = checks.every((c) => c.ok);
  if (ctx.format === 'table') {
    ctx.out(checkLines(checks));
    ctx.out(`${passed ? 'PASSED' : 'FAILED'} model ${model.model_id}: ${checkSummary(checks)}`);
  } else ctx.out(render(ctx.format, { model_id: model.model_id, passed, checks }, { rows: [], columns: [] }));
  return passed ? EXIT.ok : EXIT.failed;
}

interface Outcome {
  auditor_id: string;
  status: string;
  claims: string[];
  latency_ms?: number;
  error?: { code: string; message: string };
}

interface Evidence {
  evidence_id: string;
  decision: 'allow' | 'deny';
  decision_reasons: string[];
  blocked: boolean;
  policy_id?: string;
  audit_mode?: string;
  auditors?: Outcome[];
}

export interface TestFlags {
  gateway: string;
  prompt: string;
  output?: string;
  phase?: string;
  model?: string;
  expect?: string;
}

/** The POST /v1/evaluate body of a sample request. */
export function sampleEvaluation(flags: TestFlags): Record<string, unknown> {
  const phase = flags.phase ?? (flags.output === undefined ? 'request' : 'response');
  if (!['request', 'response'].includes(phase))
    throw usageError(`unknown --phase '${phase}'`, 'use request or response');
  if (phase === 'response' && flags.output === undefined)
    throw usageError('--phase response needs --answer <model answer text>');
  const metadata = { session_id: 'platform-cli', ...(flags.model ? { model_id: flags.model } : {}) };
  return {
    data: { input: flags.prompt, ...(flags.output !== undefined ? { output: flags.output } : {}), metadata },
    phase,
  };
}

async function evaluate(gateway: string, body: unknown): Promise<Evidence> {
  const base = gateway.replace(/\/+$/, '');
  let answer: Answer;
  try {
    answer = await call(`${base}/v1/evaluate`, body, 120_000);
  } catch (err) {
    throw new CliError(
      `cannot reach the gateway at ${base}: ${causeOf(err)}`,
      EXIT.unreachable,
      'check --gateway',
    );
  }
  const detail = (answer.body as { detail?: unknown } | null)?.detail;
  if (answer.status >= 500)
    throw new CliError(
      `the gateway failed (${answer.status}): ${String(detail ?? answer.body)}`,
      EXIT.unreachable,
    );
  if (answer.status !== 200)
    throw new CliError(`POST /v1/evaluate: ${answer.status}: ${String(detail ?? answer.body)}`, EXIT.failed);
  return answer.body as Evidence;
}

const AUDITOR_COLUMNS: Column<Outcome>[] = [
  { header: 'auditor', value: (a) => a.auditor_id },
  { header: 'status', value: (a) => (a.error ? `${a.status} ${a.error.code}` : a.status) },
  { header: 'ms', value: (a) => (a.latency_ms === undefined ? undefined : Math.round(a.latency_ms)) },
  { header: 'claims', value: (a) => a.claims.length },
];

function describe(e: Evidence): string {
  const reasons = e.decision_reasons.length ? e.decision_reasons.map((r) => `  - ${r}`) : ['  (none given)'];
  const auditors = e.auditors?.length
    ? render('table', {}, { rows: e.auditors, columns: AUDITOR_COLUMNS }).trimEnd()
    : 'no auditors answered';
  return [
    `decision: ${e.decision}${e.blocked ? ' (blocked)' : ''}   policy: ${e.policy_id ?? '-'}   mode: ${e.audit_mode ?? '-'}`,
    'reasons:',
    ...reasons,
    auditors,
    `evidence: ${e.evidence_id}`,
  ].join('\n');
}

export async function testModel(ctx: CliContext, flags: TestFlags): Promise<number> {
  if (!/^https?:\/\/\S+$/.test(flags.gateway))
    throw usageError(`invalid --gateway '${flags.gateway}'`, 'use http(s)://host:port');
  if (flags.expect !== undefined && !['allow', 'deny'].includes(flags.expect))
    throw usageError(`unknown --expect '${flags.expect}'`, 'use allow or deny');
  const evidence = await evaluate(flags.gateway, sampleEvaluation(flags));
  ctx.out(
    ctx.format === 'table' ? describe(evidence) : render(ctx.format, evidence, { rows: [], columns: [] }),
  );
  if (flags.expect && evidence.decision !== flags.expect) {
    ctx.note(`expected ${flags.expect}, the gateway decided ${evidence.decision}`);
    return EXIT.failed;
  }
  return EXIT.ok;
}
