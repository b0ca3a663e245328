// `platform ask "<prompt>"`: asks the reference agent running in this pod
// (its /v1/ask on loopback) to make one model call now, and prints what came
// back: the decision, the Evidence id and the answer. For `kubectl exec`.
import type { Command } from 'commander';

export interface AskOptions {
  port: string;
  stream?: boolean;
}

interface AskAnswer {
  status?: number;
  decision?: string;
  evidence_id?: string;
  answer?: string;
  decision_reasons?: unknown;
  detail?: string;
}

/** One line per field a person reads first; the whole answer as JSON last. */
export function formatAnswer(a: AskAnswer): string {
  const lines = [`decision: ${a.decision ?? 'unknown'}`, `evidence: ${a.evidence_id ?? '-'}`];
  if (a.answer) lines.push(`answer:   ${a.answer}`);
  if (a.decision_reasons !== undefined) lines.push(`reasons:  ${JSON.stringify(a.decision_reasons)}`);
  if (a.detail !== undefined) lines.push(`detail:   ${a.detail}`);
  return `${lines.join('\n')}\n`;
}

export async function ask(prompt: string, o: AskOptions): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${o.port}/v1/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt, stream: o.stream === true }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await res.json().catch(() => ({ detail: `HTTP ${res.status}` }))) as AskAnswer;
  process.stdout.write(formatAnswer(body));
  return res.ok ? 0 : 1;
}

export function addAskCommand(program: Command): void {
  program
    .command('ask')
    .description("ask this pod's reference agent to make one governed model call now")
    .argument('<prompt>', 'what to ask the model')
    .option('--port <port>', "the agent's port", process.env.PORT ?? '8080')
    .option('--stream', 'ask for a streamed answer')
    .action(async (prompt: string, o: AskOptions) => {
      process.exitCode = await ask(prompt, o);
    });
}
