// A value the proxy reads from the Verifier at start and again every
// interval (the Access Manifest, the egress bundle): one read at a time, the
// last good value kept when a read fails, nothing known before the first.
import type { Logger } from '../base/log.ts';

export interface RefreshedOptions<T> {
  /** Reads the value; throws when it cannot. */
  read: () => Promise<T>;
  /** What the value is, for the warning when a read fails. */
  what: string;
  log: Logger;
  /** Called with the outcome of every read (for metrics). */
  onRefresh?: (ok: boolean) => void;
  /** Called after each successful read with the value read and the one before. */
  onRead?: (value: T, previous: T | undefined) => void;
}

export class Refreshed<T> {
  private value: T | undefined;
  private inflight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: RefreshedOptions<T>) {}

  /** The value last read (undefined before the first successful read). */
  get current(): T | undefined {
    return this.value;
  }

  /** The value, reading it first when none has been read yet (undefined: still unknown). */
  async get(): Promise<T | undefined> {
    if (this.value === undefined) await this.refresh();
    return this.value;
  }

  /** Reads now (one read at a time); keeps the last value on failure. */
  refresh(): Promise<void> {
    this.inflight ??= this.read().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  /** Reads now and every `intervalMs` until `stop`. */
  start(intervalMs: number): Promise<void> {
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
    return this.refresh();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<void> {
    try {
      const next = await this.o.read();
      const previous = this.value;
      this.value = next;
      this.o.onRefresh?.(true);
      this.o.onRead?.(next, previous);
    } catch (err) {
      this.o.onRefresh?.(false);
      this.o.log.warn(
        { err: (err as Error).message, kept: this.value !== undefined },
        `could not read the ${this.o.what}; keeping the last one read`,
      );
    }
  }
}
