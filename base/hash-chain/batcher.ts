// Group commit for the append-only logs (evidence store, audit log).
/**
 * Group commit: appends queued while a batch is being written go into the
 * next batch, so one write (and one fsync or transaction) serves many.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly write: (items: T[]) => Promise<(R | Error)[]>) {}

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        const results = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => {
          const r = results[i];
          if (r instanceof Error) b.reject(r);
          else b.resolve(r as R);
        });
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.running = false;
  }
}
