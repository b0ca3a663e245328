// Bursts of watch events as one piece of work: a leader's own write comes
// back as an event, and kubectl apply of both configurations is two.
export interface Coalesced {
  trigger(): void;
  cancel(): void;
}

/** Runs `work` `delayMs` after the first trigger; triggers meanwhile or while it runs make one more run. */
export function coalesced(work: () => Promise<void>, delayMs: number): Coalesced {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    timer = undefined;
    running = true;
    try {
      await work();
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = (): void => {
    if (running) again = true;
    else if (!timer) {
      timer = setTimeout(() => void run(), delayMs);
      timer.unref();
    }
  };
  return {
    trigger: schedule,
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
      again = false;
    },
  };
}
