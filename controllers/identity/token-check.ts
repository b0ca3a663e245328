// Whether an agent's OAuth client can obtain a token: the SVID just signed is
// presented to the authorization server's token endpoint as a `jwt-spiffe`
// client assertion (decision 138). The answer is `ok` or the OAuth error code
// (or why the endpoint could not be asked); the token itself is dropped.
const JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export async function checkTokenEndpoint(url: string, svid: string, timeoutMs = 5_000): Promise<string> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: JWT_SPIFFE,
        client_assertion: svid,
      }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (res.status === 200 && typeof body.access_token === 'string') return 'ok';
    return typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
  } catch (err) {
    return `unreachable: ${(err as Error).message}`.slice(0, 200);
  }
}
