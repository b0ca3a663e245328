// RFC 7591 dynamic client registration of an agent, pure (decision 156): the
// request (the agent's JWT-SVID, addressed to the authorization server alone,
// as the software statement; `private_key_jwt` against the platform's JWKS,
// so the same SVID authenticates at the token endpoint as a `jwt-spiffe`
// assertion) and what of the answer is kept. A `client_secret` in the answer
// is carried separately so no caller can echo it by accident.

export interface RegistrationRequest {
  client_name: string;
  grant_types: ['client_credentials'];
  token_endpoint_auth_method: 'private_key_jwt';
  token_endpoint_auth_signing_alg: string;
  jwks_uri: string;
  software_statement: string;
  scope?: string;
}

export function registrationRequest(o: {
  agentId: string;
  svid: string;
  alg: string;
  platformJwksUri: string;
  scopes: readonly string[];
}): RegistrationRequest {
  return {
    client_name: o.agentId,
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: o.alg,
    jwks_uri: o.platformJwksUri,
    software_statement: o.svid,
    ...(o.scopes.length > 0 ? { scope: o.scopes.join(' ') } : {}),
  };
}

export interface Registration {
  clientId: string;
  /** Present only when the server issued one despite `private_key_jwt`; never shown or logged. */
  clientSecret?: string;
}

export type RegistrationOutcome = { ok: true; registration: Registration } | { ok: false; reason: string };

const CLIENT_ID_MAX = 1024;

const usableClientId = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= CLIENT_ID_MAX;

/** RFC 7591 §3.2.1 (201 with a `client_id`) or §3.2.2 (an error code); the reason never quotes a secret. */
export function parseRegistration(status: number, body: unknown): RegistrationOutcome {
  const doc = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (status !== 201 && status !== 200) {
    const code = typeof doc.error === 'string' ? doc.error.slice(0, 64) : 'no error code';
    return { ok: false, reason: `the authorization server refused the registration (${status}, ${code})` };
  }
  if (!usableClientId(doc.client_id))
    return { ok: false, reason: 'the registration answer has no usable client_id' };
  const secret = doc.client_secret;
  const clientSecret = typeof secret === 'string' && secret ? { clientSecret: secret } : {};
  return { ok: true, registration: { clientId: doc.client_id, ...clientSecret } };
}
