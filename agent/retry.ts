// When and how long the start-up model call waits before trying again. In a
// pod the agent can start before its sidecars listen: the redirected
// connection is then refused (or reset) until the gateway is up.

/** Network failures that mean "not listening yet", worth another try. */
const NOT_YET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EAI_AGAIN']);

export function isRetryable(code: string): boolean {
  return NOT_YET.has(code);
}

/** The waits between `attempts` tries: `firstMs`, doubling, each at most `capMs`. */
export function backoffDelaysMs(attempts: number, firstMs: number, capMs = 8_000): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, i) => Math.min(capMs, firstMs * 2 ** i));
}
