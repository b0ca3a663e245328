// `platform evidence export` writes an agent's Evidence and attestation
// results over a time range to a self-contained bundle (evidence/bundle.ts);
// `platform evidence verify` checks such a bundle offline, with no cluster
// and no network: every signature, the hash chain, the trust tiers.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AGENT_ID_PATTERN } from '../../contract/agent-id.ts';
import { buildBundle, serializeBundle, type ListedAuditor } from '../../evidence/bundle.ts';
import { verifyBundleText, type BundleVerdict } from '../../evidence/bundle-verify.ts';
import { action, contextOf, type CliContext, type GlobalFlags } from './context.ts';
import { EXIT, usageError } from './errors.ts';
import { agentEvidence, rangeOf, type RangeFlags } from './evidence-fetch.ts';
import { FORMATS, render } from './output.ts';

interface ExportFlags extends RangeFlags {
  agent: string;
}

const AGENT_ID = new RegExp(AGENT_ID_PATTERN);

function checkAgentId(id: string): string {
  if (!AGENT_ID.test(id)) throw usageError(`invalid --agent '${id}'`, 'name the agent as <namespace>.<name>');
  return id;
}

async function exportBundle(ctx: CliContext, path: string, flags: ExportFlags): Promise<number> {
  const agentId = checkAgentId(flags.agent);
  const now = Date.now();
  const range = rangeOf(flags, now);
  const client = ctx.client();
  const records = await agentEvidence(client, agentId, range);
  const { body } = await client.get<{ items?: ListedAuditor[] }>('/v1/auditors');
  const bundle = buildBundle(
    {
      exportedAt: new Date(now).toISOString(),
      server: client.target.server,
      agentId,
      from: new Date(range.fromMs).toISOString(),
      to: new Date(range.toMs).toISOString(),
    },
    records,
    body.items ?? [],
  );
  const text = serializeBundle(bundle);
  if (path === '-') process.stdout.write(text);
  else writeFileSync(path, text, { mode: 0o644 });
  const seqs = records.length ? ` (seq ${bundle.chain.first_seq}–${bundle.chain.last_seq})` : '';
  ctx.note(`exported ${records.length} Evidence of ${agentId}${seqs} to ${path === '-' ? 'stdout' : path}`);
  return EXIT.ok;
}

function readBundle(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** One line: OK with what was checked, or the first failing record and why. */
export function verdictLine(v: BundleVerdict): string {
  if (v.ok) {
    const s = v.summary;
    const span = s.records ? `, seq ${s.first_seq}–${s.last_seq}` : '';
    const tiers = Object.entries(s.tiers)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    const hw = s.hardware_unchecked ? `; ${s.hardware_unchecked} hardware quotes taken as recorded` : '';
    return `OK: ${s.records} records of ${s.agent_id}${span}: signatures valid, hash chain intact (${s.links} links, ${s.gaps} gaps of other agents' entries), trust tiers recomputed${tiers ? ` (${tiers})` : ''}${hw}`;
  }
  if (!v.record) return `FAILED: ${v.problem}`;
  const r = v.record;
  const what = [r.seq === undefined ? '' : `seq ${r.seq}`, r.evidence_id ? `evidence ${r.evidence_id}` : '']
    .filter(Boolean)
    .join(', ');
  return `FAILED: record ${r.index}${what ? ` (${what})` : ''}: ${v.problem}`;
}

async function verify(ctx: CliContext, path: string): Promise<number> {
  const verdict = await verifyBundleText(readBundle(path));
  ctx.out(
    ctx.format === 'table' ? verdictLine(verdict) : render(ctx.format, verdict, { rows: [], columns: [] }),
  );
  return verdict.ok ? EXIT.ok : EXIT.failed;
}

/** The root command, where the global `-o` lives. */
function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

/** For `export`, the global `-o` names the bundle file (`-` for stdout). */
function exportAction(): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const flags = cmd.optsWithGlobals<GlobalFlags & ExportFlags>();
    const given = rootOf(cmd).getOptionValueSource('output') !== 'default';
    const path = given ? flags.output : undefined;
    if (!path) throw usageError('no bundle file given', 'pass -o <file>, or -o - for standard output');
    if ((FORMATS as readonly string[]).includes(path))
      throw usageError(
        `-o names the bundle file for export, not a format`,
        `write -o ./${path} for a file of that name`,
      );
    process.exitCode = await exportBundle(contextOf({ ...flags, output: undefined }), path, flags);
  };
}

export function addEvidenceCommands(program: Command): void {
  const evidence = program
    .command('evidence')
    .description("export an agent's Evidence to a bundle file, and verify such a bundle offline");
  evidence
    .command('export')
    .description(
      "write an agent's Evidence and attestation results over a time range to a bundle (-o <file>)",
    )
    .requiredOption('--agent <agent_id>', 'the agent, as <namespace>.<name>')
    .option(
      '--since <duration>',
      'Evidence generated within this long before now: 30m, 24h, 7d (default 24h)',
    )
    .option('--from <time>', 'start of the range (RFC 3339)')
    .option('--to <time>', 'end of the range (RFC 3339; default now)')
    .addHelpText('after', '\nThe global -o names the bundle file (-o - writes it to standard output).')
    .action(exportAction());
  evidence
    .command('verify')
    .description(
      'check a bundle offline: every signature, the hash chain and the trust tiers (exit 1 on failure)',
    )
    .argument('<file>', 'the bundle (- for standard input)')
    .action(action(verify));
}
