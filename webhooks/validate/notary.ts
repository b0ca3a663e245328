// The Verifier's registry check, `GET {verifier}/registry/check?digest=sha256:<hex>`
// → `{digest, notarized}`, with a bounded timeout, a per-digest cache (a
// positive answer lives longer than a negative one; errors are not cached) and
// one request in flight per digest.
import type { WebhookMetrics } from '../metrics.ts';

export type NotaryAnswer = { notarized: boolean } | { error: string };

export interface Notary {
  check(digest: string): Promise<NotaryAnswer>;
}

export interface HttpNotaryOptions {
  verifierUrl: string;
  timeoutMs: number;
  /** How long a `notarized: true` answer is reused. */
  cacheTtlMs: number;
  /** How long a `notarized: false` answer is reused (a digest may be notarized soon). */
  negativeCacheTtlMs: number;
  maxEntries?: number;
  now?: () => number;
  metrics?: WebhookMetrics;
}

export const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;

/** `repo[:tag]@sha256:<hex>` → the digest; undefined when the image is not pinned by digest. */
export function imageDigest(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  if (at < 1) return undefined;
  const digest = image.slice(at + 1);
  return DIGEST_RE.test(digest) ? digest : undefined;
}

async function ask(options: HttpNotaryOptions, digest: string): Promise<NotaryAnswer> {
  const url = `${options.verifierUrl}/registry/check?digest=${encodeURIComponent(digest)}`;
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: { accept: 'application/json' },
    });
    const text = await res.text();
    if (res.status !== 200) return { error: `Verifier answered HTTP ${res.status}` };
    const body = JSON.parse(text) as { digest?: unknown; notarized?: unknown };
    if (typeof body.notarized !== 'boolean' || body.digest !== digest) {
      return { error: 'Verifier answer is not {digest, notarized} for this digest' };
    }
    return { notarized: body.notarized };
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError') return { error: `Verifier did not answer within ${options.timeoutMs} ms` };
    return {
      error: `Verifier unreachable: ${e.message}${e.cause ? ` (${String((e.cause as Error).message ?? e.cause)})` : ''}`,
    };
  }
}

export function httpNotary(options: HttpNotaryOptions): Notary {
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  const cache = new Map<string, { answer: NotaryAnswer; expiresAtMs: number }>();
  const inFlight = new Map<string, Promise<NotaryAnswer>>();
  const remember = (digest: string, answer: NotaryAnswer): void => {
    if (!('notarized' in answer)) return;
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(digest, {
      answer,
      expiresAtMs: now() + (answer.notarized ? options.cacheTtlMs : options.negativeCacheTtlMs),
    });
  };
  return {
    async check(digest) {
      const hit = cache.get(digest);
      if (hit && hit.expiresAtMs > now()) {
        options.metrics?.notaryLookups.inc({ result: 'cached' });
        return hit.answer;
      }
      let pending = inFlight.get(digest);
      if (!pending) {
        pending = ask(options, digest).finally(() => inFlight.delete(digest));
        inFlight.set(digest, pending);
      }
      const answer = await pending;
      remember(digest, answer);
      const result = 'error' in answer ? 'error' : answer.notarized ? 'notarized' : 'not-notarized';
      options.metrics?.notaryLookups.inc({ result });
      return answer;
    },
  };
}
