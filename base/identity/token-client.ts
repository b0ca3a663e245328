// The client side of the platform's token endpoint: a `client_credentials`
// request authenticated by a JWT-SVID as a `jwt-spiffe` client assertion (the
// SPIFFE client-auth draft). Used by the gateway for its token and by the
// operator's CredentialsReady check; a network failure throws.
export const ASSERTION_JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export type TokenOutcome =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; status: number; error?: string; description?: string };

export async function clientCredentialsWithSvid(
  tokenUrl: string,
  svid: string,
  timeoutMs: number,
): Promise<TokenOutcome> {
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_JWT_SPIFFE,
      client_assertion: svid,
    }).toString(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 200 && typeof body.access_token === 'string' && typeof body.expires_in === 'number')
    return { ok: true, accessToken: body.access_token, expiresIn: body.expires_in };
  return {
    ok: false,
    status: res.status,
    ...(typeof body.error === 'string' ? { error: body.error } : {}),
    ...(typeof body.error_description === 'string' ? { description: body.error_description } : {}),
  };
}
