// The client side of OAuth token endpoints: a form POST answered with a token
// or an RFC 6749 §5.2 error. `clientCredentialsWithSvid` is the platform's
// `client_credentials` request authenticated by a JWT-SVID as a `jwt-spiffe`
// client assertion (the SPIFFE client-auth draft), used by the gateway for its
// token, by the operator's CredentialsReady check and by the credential proxy;
// a network failure or timeout throws (the fetch error).
export const ASSERTION_JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export type TokenOutcome =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; status: number; error?: string; description?: string };

/** `expiresIn` is optional here: RFC 6749 §5.1 only recommends it. */
export type FormTokenOutcome =
  | { ok: true; accessToken: string; expiresIn?: number }
  | { ok: false; status: number; error?: string; description?: string };

/** POSTs `params` as a form to a token endpoint and reads its JSON answer. */
export async function postTokenForm(
  tokenUrl: string,
  params: Record<string, string>,
  timeoutMs: number,
): Promise<FormTokenOutcome> {
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 200 && typeof body.access_token === 'string') {
    const expiresIn = typeof body.expires_in === 'number' ? { expiresIn: body.expires_in } : {};
    return { ok: true, accessToken: body.access_token, ...expiresIn };
  }
  return {
    ok: false,
    status: res.status,
    ...(typeof body.error === 'string' ? { error: body.error } : {}),
    ...(typeof body.error_description === 'string' ? { description: body.error_description } : {}),
  };
}

/** The `client_credentials` form with a JWT-SVID assertion (and `client_id` when the server wants one). */
export function clientCredentialsForm(svid: string, clientId?: string): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_assertion_type: ASSERTION_JWT_SPIFFE,
    client_assertion: svid,
    ...(clientId ? { client_id: clientId } : {}),
  };
}

export async function clientCredentialsWithSvid(
  tokenUrl: string,
  svid: string,
  timeoutMs: number,
): Promise<TokenOutcome> {
  const outcome = await postTokenForm(tokenUrl, clientCredentialsForm(svid), timeoutMs);
  if (!outcome.ok) return outcome;
  // The platform's endpoint always says how long its token lives; without it the answer is not one.
  if (outcome.expiresIn === undefined) return { ok: false, status: 200 };
  return { ok: true, accessToken: outcome.accessToken, expiresIn: outcome.expiresIn };
}

/** The `exp` of a JWT (seconds), read without verifying; undefined when unreadable. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}
