// At most `max` MCP requests in flight (MCP_MAX_CONCURRENT_CALLS); one more
// is refused at once (429), never queued: a queue would hold connections and
// memory for callers that will retry anyway.
export class CallLimiter {
  private inFlight = 0;

  constructor(readonly max: number) {}

  /** A release function when a slot is free, else undefined. Releasing twice frees one slot. */
  tryAcquire(): (() => void) | undefined {
    if (this.inFlight >= this.max) return undefined;
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }

  get active(): number {
    return this.inFlight;
  }
}
