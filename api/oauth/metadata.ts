// What the platform's OAuth authorization server says about itself (RFC 8414)
// and its signing keys as a JWKS (RFC 7517): the trust bundle's JWT
// authorities, marked `use: sig` (the bundle marks them `jwt-svid`, which
// generic JOSE libraries skip). Pure.
import type { JWK } from 'jose';
import { SVID_ALGORITHMS } from '../../base/identity/jwt-svid.ts';
import type { TrustBundle } from '../../base/identity/trust-keys.ts';

export const GRANT_CLIENT_CREDENTIALS = 'client_credentials';
export const GRANT_TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** RFC 7523 §2.2: a JWT (here a JWT-SVID) as the client's credential. */
export const ASSERTION_JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** The SPIFFE client-authentication draft: the JWT-SVID itself is the assertion. */
import { ASSERTION_JWT_SPIFFE } from '../../base/identity/token-client.ts';

export { ASSERTION_JWT_SPIFFE };

export const TOKEN_PATH = '/oauth/token';
export const JWKS_PATH = '/oauth/jwks';

export const tokenEndpointOf = (issuer: string): string => `${issuer}${TOKEN_PATH}`;

export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: tokenEndpointOf(issuer),
    jwks_uri: `${issuer}${JWKS_PATH}`,
    // The token endpoint grants client_credentials; RFC 8693 exchanges have their own path (the spec's).
    grant_types_supported: [GRANT_CLIENT_CREDENTIALS],
    token_exchange_endpoint: `${issuer}/v1/token-exchange`,
    response_types_supported: [],
    // Client secrets are not accepted yet (decision 137): only JWT-SVID assertions.
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    client_assertion_types_supported: [ASSERTION_JWT_BEARER, ASSERTION_JWT_SPIFFE],
    token_endpoint_auth_signing_alg_values_supported: SVID_ALGORITHMS,
  };
}

export function jwksOf(bundle: TrustBundle): { keys: JWK[] } {
  return { keys: bundle.jwt_authorities.keys.map((k) => ({ ...k, use: 'sig' })) };
}
