import { describe, expect, it } from 'vitest';
import { parseRegistration, registrationRequest } from './mcp-registration.ts';

describe('dynamic client registration (RFC 7591)', () => {
  it('asks for a client_credentials client authenticated with the platform’s keys, the SVID as software statement', () => {
    expect(
      registrationRequest({
        agentId: 'team.bot',
        svid: 'svid.jwt',
        alg: 'ES256',
        platformJwksUri: 'https://verifier/oauth/jwks',
        scopes: ['read', 'write'],
      }),
    ).toEqual({
      client_name: 'team.bot',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks_uri: 'https://verifier/oauth/jwks',
      software_statement: 'svid.jwt',
      scope: 'read write',
    });
  });

  it('keeps the client id, and a secret apart from it', () => {
    expect(parseRegistration(201, { client_id: 'c1' })).toEqual({
      ok: true,
      registration: { clientId: 'c1' },
    });
    expect(parseRegistration(201, { client_id: 'c1', client_secret: 's3cr3t' })).toEqual({
      ok: true,
      registration: { clientId: 'c1', clientSecret: 's3cr3t' },
    });
  });

  it('refuses an error answer or one without a client id, naming the code, never the description', () => {
    const refused = parseRegistration(400, {
      error: 'invalid_software_statement',
      error_description: 'token abc.def.ghi is bad',
    });
    expect(refused).toEqual({
      ok: false,
      reason: 'the authorization server refused the registration (400, invalid_software_statement)',
    });
    expect(parseRegistration(201, { client_secret: 'x' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('client_id'),
    });
    expect(parseRegistration(201, undefined)).toMatchObject({ ok: false });
  });
});
