// The work of `platform policy validate|test|push` (policy.ts declares the
// commands): an AuditorPolicy file checked
// offline (one problem a line, file:line), tested against claim fixtures or
// replayed over recorded Evidence, and saved through `/v1/policies`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { indexVocabularies } from '../../policy/cedar-schema.ts';
import type { Decision } from '../../policy/cedar-engine.ts';
import type { CliContext } from './context.ts';
import { EXIT, usageError } from './errors.ts';
import { rangeOf, type RangeFlags } from './evidence-fetch.ts';
import { render } from './output.ts';
import { checkPolicyDocs } from './policy-check.ts';
import {
  evaluator,
  fileChain,
  fixturesOf,
  knownVocabularies,
  targetDoc,
  type Fixture,
  type ListedAuditorClaims,
} from './policy-decide.ts';
import { problemLine, readPolicyFile, type LoadedFile, type Problem } from './policy-file.ts';
import { pushPolicies } from './policy-push.ts';
import { printReplay } from './policy-print.ts';
import { replay } from './policy-replay.ts';

export interface FileFlags {
  file: string;
  namespace: string;
  registered?: boolean;
}

export interface TestFlags extends FileFlags, RangeFlags {
  claims?: string;
  replay?: string;
  policy?: string;
}

async function vocabularies(ctx: CliContext, registered: boolean | undefined) {
  if (!registered) return knownVocabularies();
  const { body } = await ctx.client().get<{ items?: ListedAuditorClaims[] }>('/v1/auditors');
  return knownVocabularies(body.items ?? []);
}

/** The file's documents and every problem found in them (none: valid). */
async function loadChecked(ctx: CliContext, flags: FileFlags): Promise<LoadedFile> {
  const loaded = readPolicyFile(flags.file, flags.namespace);
  const problems: Problem[] = [...loaded.problems];
  if (loaded.docs.length === 0 && problems.length === 0)
    problems.push({ file: flags.file, message: 'no AuditorPolicy in the file' });
  problems.push(...checkPolicyDocs(loaded.docs, await vocabularies(ctx, flags.registered)));
  return { docs: loaded.docs, problems };
}

function printProblems(ctx: CliContext, loaded: LoadedFile): void {
  if (ctx.format !== 'table') {
    const data = {
      valid: loaded.problems.length === 0,
      policies: loaded.docs.map((d) => d.id),
      problems: loaded.problems,
    };
    ctx.out(render(ctx.format, data, { rows: [], columns: [] }));
    return;
  }
  for (const p of loaded.problems) ctx.out(problemLine(p));
}

export async function validateCmd(ctx: CliContext, flags: FileFlags): Promise<number> {
  const loaded = await loadChecked(ctx, flags);
  printProblems(ctx, loaded);
  // A file that is not YAML is bad input (2); a policy that breaks a rule is a failed check (1).
  if (loaded.problems.some((p) => p.message.startsWith('invalid YAML'))) return EXIT.usage;
  if (loaded.problems.length > 0) return EXIT.failed;
  if (ctx.format === 'table')
    ctx.out(
      `${flags.file}: ${loaded.docs.length} ${loaded.docs.length === 1 ? 'policy' : 'policies'} valid (${loaded.docs.map((d) => d.id).join(', ')})`,
    );
  return EXIT.ok;
}

function fixtureFiles(path: string): string[] {
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch (err) {
    throw usageError(
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      'check --claims',
    );
  }
  if (!dir) return [path];
  const files = readdirSync(path)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
  if (files.length === 0) throw usageError(`${path} holds no .yaml, .yml or .json fixture file`);
  return files.map((f) => join(path, f));
}

function readFixtures(path: string, claims: Parameters<typeof fixturesOf>[2]): Fixture[] {
  return fixtureFiles(path).flatMap((file) => {
    let parsed: unknown;
    try {
      parsed = parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw usageError(`${file} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
    }
    return fixturesOf(parsed, file, claims);
  });
}

interface FixtureRow {
  name: string;
  decision: Decision['decision'];
  expect: string | null;
  result: 'pass' | 'FAIL' | '-';
  decided_by: string[];
  reasons: string[];
}

function rowOf(f: Fixture, d: Decision): FixtureRow {
  return {
    name: f.name,
    decision: d.decision,
    expect: f.expect ?? null,
    result: f.expect === undefined ? '-' : f.expect === d.decision ? 'pass' : 'FAIL',
    decided_by: d.determining,
    reasons: d.reasons,
  };
}

const FIXTURE_COLUMNS = [
  { header: 'name', value: (r: FixtureRow) => r.name },
  { header: 'decision', value: (r: FixtureRow) => r.decision },
  { header: 'expect', value: (r: FixtureRow) => r.expect },
  { header: 'result', value: (r: FixtureRow) => r.result },
  { header: 'decided by', value: (r: FixtureRow) => r.decided_by },
  { header: 'reasons', value: (r: FixtureRow) => r.reasons.join('; ') },
];

export async function testCmd(ctx: CliContext, flags: TestFlags): Promise<number> {
  if (!flags.claims === !flags.replay)
    throw usageError(
      'give --claims <fixtures> or --replay <agent|workspace>',
      'see platform policy test --help',
    );
  const loaded = await loadChecked(ctx, flags);
  if (loaded.problems.length > 0) {
    printProblems(ctx, loaded);
    ctx.note('the policy file is not valid; fix it before testing');
    return EXIT.failed;
  }
  const target = targetDoc(loaded.docs, flags.policy);
  const chain = fileChain(loaded.docs, target);
  if (flags.replay) {
    const range = rangeOf(flags, Date.now(), flags.since ?? '24h');
    return printReplay(ctx, await replay({ client: ctx.client(), chain, subject: flags.replay, range }));
  }
  const { claims } = indexVocabularies(await vocabularies(ctx, flags.registered));
  const ev = evaluator(chain, claims);
  const rows = readFixtures(flags.claims!, claims).map((f) =>
    rowOf(f, ev.decide({ agentId: f.agentId, workspaceId: f.workspaceId, phase: f.phase, claims: f.claims })),
  );
  const failed = rows.filter((r) => r.result === 'FAIL').length;
  ctx.out(
    render(
      ctx.format,
      { policy_id: target.id, policy_version: ev.version, failed, fixtures: rows },
      { rows, columns: FIXTURE_COLUMNS },
    ),
  );
  if (ctx.format === 'table')
    ctx.out(`${rows.length} fixtures, ${failed} not as expected (policy ${target.id}, chain ${ev.version})`);
  return failed > 0 ? EXIT.failed : EXIT.ok;
}

export async function pushCmd(ctx: CliContext, flags: FileFlags & { policy?: string }): Promise<number> {
  const loaded = readPolicyFile(flags.file, flags.namespace);
  if (loaded.problems.length > 0) {
    for (const p of loaded.problems) ctx.out(problemLine(p));
    return EXIT.usage;
  }
  const docs = flags.policy ? [targetDoc(loaded.docs, flags.policy)] : loaded.docs;
  if (docs.length === 0) throw usageError(`${flags.file} holds no AuditorPolicy`);
  return pushPolicies(ctx, docs);
}
