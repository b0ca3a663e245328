// The code-for-token call at a provider's token endpoint: a form POST with a
// 5 s deadline, a 64 KiB answer cap and no redirect followed; every failure is
// a code and words without the code, the verifier or any token.
import { clientAuth, codeForm, readTokenAnswer, refreshForm, type TokenAnswer } from './oauth-flow.ts';
import { clientSecretOf, type OAuthProvider } from './oauth-providers.ts';

export const TOKEN_TIMEOUT_MS = 5_000;
export const TOKEN_MAX_BYTES = 64 * 1024;

class TooLarge extends Error {}

async function boundedText(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

function failure(err: unknown): TokenAnswer {
  if (err instanceof TooLarge) {
    return { ok: false, code: 'token_answer_too_large', message: 'the token endpoint sent more than 64 KiB' };
  }
  const name = (err as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return {
      ok: false,
      code: 'token_endpoint_timeout',
      message: 'the token endpoint did not answer within 5 s',
    };
  }
  return {
    ok: false,
    code: 'token_endpoint_unreachable',
    message: 'the token endpoint could not be reached',
  };
}

/** POSTs a token request to `p`'s token endpoint (the client secret by Basic) and reads the answer. */
async function postToken(
  p: OAuthProvider,
  form: Record<string, string>,
  now: () => number,
): Promise<TokenAnswer> {
  let secret: string | undefined;
  try {
    secret = await clientSecretOf(p);
  } catch {
    return {
      ok: false,
      code: 'client_secret_unavailable',
      message: "the provider's client secret cannot be read",
    };
  }
  const headers = clientAuth(p, secret);
  try {
    const res = await fetch(p.token_endpoint, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...headers,
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const body = parseJson(await boundedText(res, TOKEN_MAX_BYTES));
    if (res.status === 200 && body === undefined) {
      return { ok: false, code: 'token_answer_invalid', message: 'the token endpoint did not answer JSON' };
    }
    return readTokenAnswer(res.status, body, now());
  } catch (err) {
    return failure(err);
  }
}

/** Exchanges `code` for tokens at `p`'s token endpoint. */
export const exchangeCode = (
  p: OAuthProvider,
  code: string,
  verifier: string,
  now: () => number,
): Promise<TokenAnswer> => postToken(p, codeForm(p, code, verifier), now);

/** Runs the refresh grant (RFC 6749 §6) with `refreshToken`. */
export const refreshTokens = (
  p: OAuthProvider,
  refreshToken: string,
  now: () => number,
): Promise<TokenAnswer> => postToken(p, refreshForm(p, refreshToken), now);
