// The loopback OIDC issuer (test/fixtures/oidc-issuer.ts) for one test file.
// Register it with `useOidcIssuer()` before `useApi`, so it listens before
// the API starts.
import { afterAll, beforeAll } from 'vitest';
import {
  OIDC_AUDIENCE,
  startOidcIssuer,
  type RunningOidcIssuer,
  type UserTokenOptions,
} from '../fixtures/oidc-issuer.ts';

export { OIDC_AUDIENCE, type UserTokenOptions };

export interface OidcIssuer {
  url: string;
  token(o: UserTokenOptions): Promise<string>;
  /** The API's settings for this issuer. */
  env(): Record<string, string>;
}

export function useOidcIssuer(): OidcIssuer {
  let running: RunningOidcIssuer | undefined;
  const issuer: OidcIssuer = {
    url: '',
    token: (o) => running!.token(o),
    env: () => running!.env(),
  };
  beforeAll(async () => {
    running = await startOidcIssuer();
    issuer.url = running.url;
  });
  afterAll(async () => {
    await running?.close();
  });
  return issuer;
}
