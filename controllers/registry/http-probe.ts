// The HTTP side of registry health checks: a GET with a timeout, the body
// parsed as JSON when it is JSON. No credentials are sent (decision 114).
import type { HealthProbe, ProbeResult } from './health.ts';

const MAX_BODY_CHARS = 65_536;

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function get(url: string, timeoutMs: number): Promise<ProbeResult> {
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    const text = (await res.text()).slice(0, MAX_BODY_CHARS);
    return { kind: 'answer', status: res.status, body: parse(text) };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const name = (err as Error).name;
    const error =
      name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause ?? (err as Error).message);
    return { kind: 'failed', error };
  }
}

export const httpHealthProbe: HealthProbe = { get };
