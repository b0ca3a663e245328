// Self-registration with the gateway (spec: Auditor contract; CLARIFICATIONS
// "auditor self-registration"): POST {gateway}/v1/auditors/register, retried
// with capped exponential backoff and jitter while nobody answers (connection
// errors, 408, 429, 5xx). Runs in the background; start-up never waits for it.

export interface Registration {
  auditor_id: string;
  endpoint: string;
  vocabulary_url: string;
  health_check_interval: number;
  supported_phases?: string[];
}

export interface RegisterOptions {
  gatewayUrl: string;
  registration: Registration;
  /** Sent as `Authorization: Bearer …`; never logged. */
  apiKey?: string;
  signal: AbortSignal;
  initialDelayMs?: number;
  maxDelayMs?: number;
  attemptTimeoutMs?: number;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export type RegisterResult =
  | { registered: true; attempts: number; body: unknown }
  | { registered: false; attempts: number; reason: string };

/** Delay before attempt `attempt + 1`: doubling from `initialMs`, capped, with ±20 % jitter. */
export function backoffDelayMs(
  attempt: number,
  initialMs: number,
  maxMs: number,
  random = Math.random,
): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

type Attempt = { done: true; result: RegisterResult } | { done: false; reason: string };

/** Timeouts, rate limits and server errors may pass; other refusals are final. */
const retryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

async function attemptOnce(options: RegisterOptions, attempts: number): Promise<Attempt> {
  const url = `${options.gatewayUrl.replace(/\/+$/, '')}/v1/auditors/register`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(options.registration),
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.attemptTimeoutMs ?? 5000)]),
    });
    const text = await res.text();
    if (res.ok) {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // a non-JSON success body is kept as text
      }
      return { done: true, result: { registered: true, attempts, body } };
    }
    const reason = `HTTP ${res.status}`;
    return retryableStatus(res.status)
      ? { done: false, reason }
      : { done: true, result: { registered: false, attempts, reason } };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { done: false, reason: cause ?? (err as Error).message };
  }
}

/** Registers, retrying until it succeeds, the gateway refuses for good (4xx), or `signal` aborts. */
export async function selfRegister(options: RegisterOptions): Promise<RegisterResult> {
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  for (let attempts = 1; ; attempts++) {
    const outcome = await attemptOnce(options, attempts);
    if (outcome.done) {
      const { result } = outcome;
      if (result.registered)
        options.log.info({ attempts, gateway: options.gatewayUrl }, 'registered with the gateway');
      else
        options.log.warn(
          { attempts, reason: result.reason },
          'the gateway refused the registration; not retrying',
        );
      return result;
    }
    if (options.signal.aborted) return { registered: false, attempts, reason: 'stopped' };
    const delayMs = backoffDelayMs(attempts, initial, max);
    options.log.warn(
      { attempts, reason: outcome.reason, retryInMs: delayMs },
      'gateway registration failed; retrying',
    );
    await sleep(delayMs, options.signal);
    if (options.signal.aborted) return { registered: false, attempts, reason: 'stopped' };
  }
}
