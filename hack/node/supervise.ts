// The node's processes are restarted when they die, as systemd restarts them
// on a real node: a runtime killed under running pods comes back, and the
// pods (whose shims outlive it) are found again. Backoff doubles from 1 s to
// 30 s and resets once a process has stayed up for a minute.
import type { ManagedProcess } from '../control-plane/process-group.ts';

export const FIRST_RESTART_MS = 1_000;
export const MAX_RESTART_MS = 30_000;
export const HEALTHY_AFTER_MS = 60_000;

/** How long to wait before restarting a process that ran for `ranMs` after `previousDelayMs`. */
export function restartDelayMs(previousDelayMs: number | undefined, ranMs: number): number {
  if (previousDelayMs === undefined || ranMs >= HEALTHY_AFTER_MS) return FIRST_RESTART_MS;
  return Math.min(MAX_RESTART_MS, previousDelayMs * 2);
}

export interface Supervisor {
  /** Stops restarting (before a deliberate stop). */
  halt(): void;
}

/**
 * Watches `procs` (a live list: restarted processes replace their entry) and
 * restarts any that exits while not halted.
 */
export function supervise(
  procs: ManagedProcess[],
  restart: (name: string) => ManagedProcess,
  log: (line: string) => void,
): Supervisor {
  let halted = false;
  const delays = new Map<string, number>();
  const watch = (proc: ManagedProcess): void => {
    const startedAt = Date.now();
    void proc.exited.then((code) => {
      if (halted) return;
      const delay = restartDelayMs(delays.get(proc.name), Date.now() - startedAt);
      delays.set(proc.name, delay);
      log(`${proc.name} exited (${code ?? proc.child.signalCode}); restarting in ${delay / 1000} s`);
      setTimeout(() => {
        if (halted) return;
        const next = restart(proc.name);
        procs[procs.indexOf(proc)] = next;
        watch(next);
      }, delay).unref();
    });
  };
  procs.forEach(watch);
  return {
    halt: () => {
      halted = true;
    },
  };
}
