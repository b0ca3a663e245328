// Fetching a registering auditor's vocabulary declaration from its
// `vocabulary_url`, server side: http(s) only, no redirects, a deadline and a
// size cap, so a slow, huge or hostile URL costs a bounded wait and never a
// crash. The request carries the registration's auth (decision 129). Every
// failure is a 422 naming the reason; nothing is stored.
import { HttpError, unprocessable } from '../../base/http-error.ts';
import { syncVocabulary, type SyncedVocabulary } from './vocabulary.ts';
import { endpointRequest, type CredentialHolder, type RegistrationAuth } from '../../base/registry-auth.ts';
import type { RegistryCredentials } from '../../base/registry-credentials.ts';
import { registryGet, type RegistryGetError } from '../../base/registry-get.ts';

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

/** How the registration is reached: its endpoint and auth, and where its credentials come from. */
export interface VocabularyAccess {
  holder: CredentialHolder;
  endpoint: string | undefined;
  auth: RegistrationAuth | undefined;
  credentials: RegistryCredentials;
}

async function download(url: string, access: VocabularyAccess, limits: FetchLimits): Promise<string> {
  const creds = await access.credentials.resolve(access.holder, access.auth);
  if (creds.problem) throw unreachable(url, creds.problem);
  try {
    const res = await registryGet(url, endpointRequest(url, access.endpoint, access.auth, creds), limits);
    if (res.status !== 200) throw unreachable(url, `answered HTTP ${res.status}`);
    return res.body;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const e = err as RegistryGetError;
    if (e.reason === 'too_large') throw invalid(url, `larger than ${limits.maxBytes} bytes`);
    throw unreachable(url, e.reason === 'timeout' ? `no answer within ${limits.timeoutMs} ms` : e.message);
  }
}

/** The declaration at `url`, checked for `auditorId`; throws a 422 `vocabulary_unreachable` / `vocabulary_invalid`. */
export async function fetchVocabulary(
  auditorId: string,
  url: string,
  access: VocabularyAccess,
  limits: FetchLimits = VOCABULARY_LIMITS,
): Promise<SyncedVocabulary> {
  if (!/^https?:\/\//i.test(url)) throw invalid(url, 'only http and https URLs are fetched');
  if (/^https?:\/\/[^/?#]*@/i.test(url)) throw invalid(url, 'a URL with credentials is not fetched');
  const text = await download(url, access, limits);
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
