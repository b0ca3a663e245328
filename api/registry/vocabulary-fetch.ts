// Fetching a registering auditor's vocabulary declaration from its
// `vocabulary_url`, server side: http(s) only, no redirects, a deadline and a
// size cap, so a slow, huge or hostile URL costs a bounded wait and never a
// crash. Every failure is a 422 naming the reason; nothing is stored.
import { HttpError, unprocessable } from '../../base/http-error.ts';
import { syncVocabulary, type SyncedVocabulary } from './vocabulary.ts';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const VOCABULARY_LIMITS: FetchLimits = { timeoutMs: 5000, maxBytes: 1024 * 1024 };

/** The URL as answers name it: without credentials, query or fragment. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

const unreachable = (url: string, why: string): Error =>
  unprocessable(`vocabulary_url ${shown(url)} could not be fetched: ${why}`, 'vocabulary_unreachable');
const invalid = (url: string, why: string): Error =>
  unprocessable(
    `vocabulary_url ${shown(url)} does not serve a valid vocabulary: ${why}`,
    'vocabulary_invalid',
  );

/** The body, read up to `maxBytes` (beyond: refused as too large, reading stops). */
async function readCapped(res: Response, url: string, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw invalid(url, `larger than ${maxBytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) throw invalid(url, `larger than ${maxBytes} bytes`);
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function download(url: string, limits: FetchLimits): Promise<string> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(url, { redirect: 'error', signal, headers: { accept: 'application/json' } });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw unreachable(url, `answered HTTP ${res.status}`);
    }
    return await readCapped(res, url, limits.maxBytes);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (signal.aborted) throw unreachable(url, `no answer within ${limits.timeoutMs} ms`);
    // Only the cause's code: messages may repeat the URL (its query) verbatim.
    const cause = (err as { cause?: { code?: unknown } }).cause;
    throw unreachable(url, typeof cause?.code === 'string' ? cause.code : 'the request failed');
  }
}

/** The declaration at `url`, checked for `auditorId`; throws a 422 `vocabulary_unreachable` / `vocabulary_invalid`. */
export async function fetchVocabulary(
  auditorId: string,
  url: string,
  limits: FetchLimits = VOCABULARY_LIMITS,
): Promise<SyncedVocabulary> {
  if (!/^https?:\/\//i.test(url)) throw invalid(url, 'only http and https URLs are fetched');
  if (/^https?:\/\/[^/?#]*@/i.test(url)) throw invalid(url, 'a URL with credentials is not fetched');
  const text = await download(url, limits);
  let decl: unknown;
  try {
    decl = JSON.parse(text);
  } catch {
    throw invalid(url, 'the body is not JSON');
  }
  const result = syncVocabulary(auditorId, decl);
  if (!result.ok) throw invalid(url, result.problem);
  return result.value;
}
