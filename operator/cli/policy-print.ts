// How `platform policy test --replay` shows its answer: the calls whose
// decision would change (evidence, time, agent, old → new, why), then one
// summary line; `-o json|yaml` print the whole report.
import type { CliContext } from './context.ts';
import { EXIT } from './errors.ts';
import { render, table } from './output.ts';
import type { ReplayChange, ReplayReport } from './policy-replay.ts';

const COLUMNS = [
  { header: 'evidence', value: (c: ReplayChange) => c.evidence_id },
  { header: 'time', value: (c: ReplayChange) => c.generated_at },
  { header: 'agent', value: (c: ReplayChange) => c.agent_id },
  { header: 'phase', value: (c: ReplayChange) => c.phase },
  { header: 'old → new', value: (c: ReplayChange) => `${c.old} → ${c.new}` },
  { header: 'why', value: (c: ReplayChange) => why(c) },
];

/** The new decision's reasons; for a call no longer denied, what denied it before. */
function why(c: ReplayChange): string {
  if (c.new === 'deny') return c.reasons.join('; ');
  const before = c.old_reasons.length ? c.old_reasons.join('; ') : 'denied';
  return `no longer: ${before}${c.reasons.length ? ` (allowed by ${c.reasons.join(', ')})` : ''}`;
}

export function summaryLine(r: ReplayReport): string {
  const agents = r.agents.length === 1 ? r.agents[0] : `${r.agents.length} agents`;
  return `${r.replayed} Evidence of ${agents} replayed under ${r.policy_id}: ${r.changed} would change (${r.allow_to_deny} allow → deny, ${r.deny_to_allow} deny → allow)`;
}

export function printReplay(ctx: CliContext, report: ReplayReport): number {
  for (const p of report.problems)
    ctx.note(
      `warning: the policy does not compile with this agent's vocabularies, every call is denied: ${p}`,
    );
  if (ctx.format !== 'table') {
    ctx.out(render(ctx.format, report, { rows: [], columns: [] }));
    return EXIT.ok;
  }
  if (report.changes.length > 0) ctx.out(table(report.changes, COLUMNS));
  ctx.out(summaryLine(report));
  return EXIT.ok;
}
