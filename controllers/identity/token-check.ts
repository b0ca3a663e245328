// Whether an agent's OAuth client can obtain a token: the SVID just signed is
// presented to the authorization server's token endpoint (decision 138). The
// answer is `ok` or the OAuth error code (or why the endpoint could not be
// asked); the token itself is dropped.
import { clientCredentialsWithSvid } from '../../base/identity/token-client.ts';

export async function checkTokenEndpoint(url: string, svid: string, timeoutMs = 5_000): Promise<string> {
  try {
    const outcome = await clientCredentialsWithSvid(url, svid, timeoutMs);
    if (outcome.ok) return 'ok';
    return outcome.error ?? `HTTP ${outcome.status}`;
  } catch (err) {
    return `unreachable: ${(err as Error).message}`.slice(0, 200);
  }
}
