// Graceful shutdown: on SIGTERM or SIGINT, run the registered stop functions in
// reverse order of registration, each bounded, then exit.
import type { Logger } from './log.ts';

export type StopFn = () => Promise<void> | void;

export interface Lifecycle {
  onStop(name: string, stop: StopFn): void;
  /** Resolves when a signal arrived and every stop function ran. */
  stopped: Promise<void>;
  shutdown(reason: string): Promise<void>;
}

export function createLifecycle(log: Logger, stopTimeoutMs = 10_000): Lifecycle {
  const stops: { name: string; stop: StopFn }[] = [];
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let shuttingDown: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    shuttingDown ??= (async () => {
      log.info({ reason }, 'shutting down');
      for (const { name, stop } of [...stops].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            log.warn({ name, stopTimeoutMs }, 'stop step timed out');
            resolve();
          }, stopTimeoutMs);
        });
        try {
          await Promise.race([Promise.resolve().then(stop), timeout]);
        } catch (err) {
          log.error({ err, name }, 'stop step failed');
        } finally {
          clearTimeout(timer);
        }
      }
      log.info('stopped');
      resolveStopped();
    })();
    return shuttingDown;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void shutdown(signal));
  }
  return { onStop: (name, stop) => stops.push({ name, stop }), stopped, shutdown };
}
