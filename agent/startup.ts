// What the agent does once at start: one model call with its start-up prompt
// (tried again with backoff while the connection is refused: the sidecars may
// still be starting) and, when a tool URL is set, one GET of it. Failures are
// logged by the client and never end the process.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../base/log.ts';
import type { AgentClient } from './calls.ts';
import { backoffDelaysMs, isRetryable } from './retry.ts';

export interface StartupOptions {
  client: AgentClient;
  prompt: string;
  toolUrl?: string;
  attempts: number;
  firstDelayMs: number;
  /** Aborted on SIGTERM: no further tries. */
  signal: AbortSignal;
  log: Logger;
}

async function startupModelCall(o: StartupOptions): Promise<void> {
  const delays = backoffDelaysMs(o.attempts, o.firstDelayMs);
  for (let attempt = 1; ; attempt++) {
    const call = await o.client.model({ prompt: o.prompt, trigger: 'startup' });
    const delayMs = delays[attempt - 1];
    if (call.ok || !isRetryable(call.code) || delayMs === undefined || o.signal.aborted) return;
    o.log.info({ attempt, of: o.attempts, retryInMs: delayMs }, 'model not reachable yet; trying again');
    try {
      await sleep(delayMs, undefined, { signal: o.signal });
    } catch {
      return; // aborted: the process is stopping
    }
  }
}

export async function startupCalls(o: StartupOptions): Promise<void> {
  await startupModelCall(o);
  if (o.toolUrl && !o.signal.aborted) await o.client.tool(o.toolUrl, 'GET', 'startup');
}
