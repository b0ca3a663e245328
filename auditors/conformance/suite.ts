// The auditor conformance suite: runs against any auditor base URL and returns
// a structured report (the CLI's `auditor verify` reuses it). It checks
// health, the vocabulary, claims for every declared phase, every error path it
// can provoke from outside, the optional /batch and /metrics, and that no
// answer carries decision vocabulary.
import type { Vocabulary } from '../sdk/types.ts';
import {
  decisionWordProblems,
  envelopeProblems,
  healthProblems,
  successProblems,
  vocabularyProblems,
} from './checks.ts';
import { badInputCases, sampleRequest } from './cases.ts';
import { postJson, send, type HttpAnswer } from './http.ts';

export interface CheckResult {
  id: string;
  ok: boolean;
  skipped?: boolean;
  problems: string[];
}

export interface ConformanceReport {
  baseUrl: string;
  auditorId?: string;
  version?: string;
  /** The declaration `/vocabulary` served, when it passed its check. */
  vocabulary?: Vocabulary;
  passed: boolean;
  checks: CheckResult[];
  durationMs: number;
}

export interface ConformanceOptions {
  /** How long to wait for `ready: true` (models loading). Default 60 s. */
  readyTimeoutMs?: number;
  /** Size of the oversized bodies sent. Default 10 MB. */
  oversizedBytes?: number;
  requestTimeoutMs?: number;
  /**
   * `full` (default): every check. `core`: health, the vocabulary, claims per
   * phase and decision words only, nothing provoked (what `auditor verify`
   * runs against an auditor in service).
   */
  scope?: 'full' | 'core';
}

class Recorder {
  readonly checks: CheckResult[] = [];
  readonly answers: { id: string; answer: HttpAnswer }[] = [];
  vocabulary?: Vocabulary;

  add(id: string, problems: string[], skipped = false): void {
    this.checks.push({ id, ok: problems.length === 0, problems, ...(skipped ? { skipped } : {}) });
  }

  async run(id: string, fn: () => Promise<string[]>): Promise<void> {
    try {
      this.add(id, await fn());
    } catch (err) {
      this.add(id, [`request failed: ${(err as Error).message}`]);
    }
  }
}

async function waitReady(base: string, timeoutMs: number, rec: Recorder): Promise<HttpAnswer | undefined> {
  const until = Date.now() + timeoutMs;
  let last: HttpAnswer | undefined;
  while (Date.now() < until) {
    last = await send(`${base}/health`, { timeoutMs: 5000 }).catch(() => undefined);
    if (last && (last.json as { ready?: unknown } | undefined)?.ready === true) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  rec.add('health', last ? healthProblems(last) : [`no answer from ${base}/health`]);
  rec.add(
    'health.ready',
    (last?.json as { ready?: unknown } | undefined)?.ready === true
      ? []
      : [`not ready within ${timeoutMs} ms`],
  );
  return last;
}

async function claimsChecks(
  base: string,
  vocabulary: Vocabulary,
  rec: Recorder,
  timeoutMs: number,
): Promise<void> {
  for (const phase of vocabulary.phases) {
    await rec.run(`claims.${phase}`, async () => {
      const answer = await postJson(`${base}/claims`, sampleRequest(phase, vocabulary), timeoutMs);
      rec.answers.push({ id: `claims.${phase}`, answer });
      return successProblems(answer, vocabulary);
    });
  }
  const withSettings = vocabulary.vocabulary.find((v) => (v.settings ?? []).length > 0);
  const setting = withSettings?.settings?.[0];
  if (!withSettings || !setting) return rec.add('claims.provenance_settings', [], true);
  await rec.run('claims.provenance_settings', async () => {
    const overrides = { [withSettings.name]: { [setting.key]: setting.default } };
    const phase = vocabulary.phases[0] ?? 'request';
    const body = {
      ...sampleRequest(phase, vocabulary),
      platform_context: { detection_overrides: overrides },
    };
    const answer = await postJson(`${base}/claims`, body, timeoutMs);
    rec.answers.push({ id: 'claims.provenance_settings', answer });
    return [
      ...successProblems(answer, vocabulary),
      ...provenanceProblems(answer, withSettings.name, setting.key),
    ];
  });
}

/** The claim's provenance records the setting (flat or under `settings`), when the claim was produced. */
function provenanceProblems(answer: HttpAnswer, claimName: string, key: string): string[] {
  const claims =
    (answer.json as { claims?: { name: string; provenance?: Record<string, unknown> }[] }).claims ?? [];
  const claim = claims.find((c) => c.name === claimName);
  if (!claim) return [];
  const prov = claim.provenance ?? {};
  const settings = (prov.settings ?? {}) as Record<string, unknown>;
  return Object.hasOwn(prov, key) || Object.hasOwn(settings, key)
    ? []
    : [`claim ${claimName}: provenance does not record setting ${key}`];
}

async function errorChecks(
  base: string,
  vocabulary: Vocabulary,
  rec: Recorder,
  options: ConformanceOptions,
): Promise<void> {
  for (const c of badInputCases(vocabulary, options.oversizedBytes ?? 10 * 1024 * 1024)) {
    await rec.run(`invalid_input.${c.id}`, async () => {
      const answer = await send(`${base}/claims`, {
        method: 'POST',
        ...c.send,
        timeoutMs: options.requestTimeoutMs ?? 30_000,
      });
      rec.answers.push({ id: c.id, answer });
      const problems = envelopeProblems(answer, 'INVALID_INPUT');
      if (c.wantsMaxBytes) {
        const details = (answer.json as { error?: { details?: { max_bytes?: unknown } } }).error?.details;
        if (typeof details?.max_bytes !== 'number') problems.push('details.max_bytes is missing');
      }
      return problems;
    });
  }
  await rec.run('health.after_bad_input', async () =>
    healthProblems(await send(`${base}/health`, { timeoutMs: 5000 })),
  );
}

/** `/batch` (optional): one answer per item, in order. */
async function batchCheck(base: string, vocabulary: Vocabulary, rec: Recorder): Promise<void> {
  const phase = vocabulary.phases[0] ?? 'request';
  const batch = await postJson(`${base}/batch`, {
    items: [sampleRequest(phase, vocabulary), { phase }],
  }).catch(() => undefined);
  if (!batch || batch.status === 404) return rec.add('batch', [], true);
  rec.answers.push({ id: 'batch', answer: batch });
  const results = (batch.json as { results?: unknown[] } | undefined)?.results;
  const as = (i: number): HttpAnswer => ({ ...batch, json: results?.[i] });
  if (!Array.isArray(results) || results.length !== 2)
    return rec.add('batch', ['results is not an array of 2, one per item, in order']);
  rec.add('batch', [
    ...successProblems(as(0), vocabulary),
    ...envelopeProblems(as(1), 'INVALID_INPUT').map((p) => `item 2: ${p}`),
  ]);
}

/** `/metrics` (optional): Prometheus text. */
async function metricsCheck(base: string, rec: Recorder): Promise<void> {
  const metrics = await send(`${base}/metrics`).catch(() => undefined);
  if (!metrics || metrics.status === 404) return rec.add('metrics', [], true);
  rec.add(
    'metrics',
    metrics.status === 200 && metrics.text.includes('# TYPE') ? [] : ['GET /metrics is not Prometheus text'],
  );
}

async function optionalChecks(base: string, vocabulary: Vocabulary, rec: Recorder): Promise<void> {
  await batchCheck(base, vocabulary, rec);
  await metricsCheck(base, rec);
}

export async function runConformance(
  baseUrl: string,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const started = performance.now();
  const base = baseUrl.replace(/\/+$/, '');
  const rec = new Recorder();
  const health = await waitReady(base, options.readyTimeoutMs ?? 60_000, rec);
  const vocabAnswer = await send(`${base}/vocabulary`).catch(() => undefined);
  const vocabProblems = vocabAnswer ? vocabularyProblems(vocabAnswer) : ['no answer from /vocabulary'];
  rec.add('vocabulary', vocabProblems);
  if (vocabAnswer && vocabProblems.length === 0) rec.vocabulary = vocabAnswer.json as Vocabulary;
  const report = (): ConformanceReport => {
    const h = health?.json as { auditor_id?: string; version?: string } | undefined;
    return {
      baseUrl: base,
      ...(h?.auditor_id ? { auditorId: h.auditor_id } : {}),
      ...(h?.version ? { version: h.version } : {}),
      ...(rec.vocabulary ? { vocabulary: rec.vocabulary } : {}),
      passed: rec.checks.every((c) => c.ok),
      checks: rec.checks,
      durationMs: Math.round(performance.now() - started),
    };
  };
  if (vocabProblems.length > 0 || !vocabAnswer) return report();
  const vocabulary = vocabAnswer.json as Vocabulary;
  await claimsChecks(base, vocabulary, rec, options.requestTimeoutMs ?? 30_000);
  if (options.scope !== 'core') {
    await errorChecks(base, vocabulary, rec, options);
    await optionalChecks(base, vocabulary, rec);
  }
  rec.add(
    'no_decision_words',
    rec.answers.flatMap(({ id, answer }) => decisionWordProblems(answer).map((p) => `${id}: ${p}`)),
  );
  return report();
}

/** One line per failed check, for logs and test messages. */
export function formatFailures(report: ConformanceReport): string {
  return report.checks
    .filter((c) => !c.ok)
    .map((c) => `${report.auditorId ?? report.baseUrl} ${c.id}: ${c.problems.join('; ')}`)
    .join('\n');
}
