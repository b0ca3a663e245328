import { describe, expect, it } from 'vitest';
import {
  authorizationServerUrl,
  parseAuthorizationServer,
  parseProtectedResource,
  protectedResourceUrls,
  secureUrlProblem,
} from './mcp-discovery.ts';

const SERVER = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const AS_DOC = {
  issuer: ISSUER,
  token_endpoint: `${ISSUER}/token`,
  registration_endpoint: `${ISSUER}/register`,
  grant_types_supported: ['client_credentials', 'authorization_code'],
};

describe('well-known URLs', () => {
  it('tries the path-inserted RFC 9728 URL first, then the root one', () => {
    expect(protectedResourceUrls(SERVER)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceUrls('https://mcp.example.com/')).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('inserts an issuer path after the RFC 8414 well-known segment', () => {
    expect(authorizationServerUrl(ISSUER)).toBe(`${ISSUER}/.well-known/oauth-authorization-server`);
    expect(authorizationServerUrl(`${ISSUER}/tenant`)).toBe(
      `${ISSUER}/.well-known/oauth-authorization-server/tenant`,
    );
  });

  it('accepts https and loopback http only, never credentials in the URL', () => {
    expect(secureUrlProblem('https://a.example')).toBeUndefined();
    expect(secureUrlProblem('http://127.0.0.1:9/x')).toBeUndefined();
    expect(secureUrlProblem('http://localhost/x')).toBeUndefined();
    expect(secureUrlProblem('http://a.example')).toContain('https');
    expect(secureUrlProblem('https://u:p@a.example')).toContain('credentials');
    expect(secureUrlProblem('not a url')).toContain('absolute');
  });
});

describe('protected-resource metadata (RFC 9728)', () => {
  it('keeps the resource, its authorization servers and scopes', () => {
    const doc = { resource: SERVER, authorization_servers: [ISSUER], scopes_supported: ['read'] };
    expect(parseProtectedResource(doc, `${SERVER}/`)).toEqual({
      resource: SERVER,
      authorizationServers: [ISSUER],
      scopes: ['read'],
    });
  });

  it.each([
    [
      'another resource',
      { resource: 'https://evil.example/mcp', authorization_servers: [ISSUER] },
      'is not the server',
    ],
    ['no resource', { authorization_servers: [ISSUER] }, 'no resource'],
    ['no authorization server', { resource: SERVER, authorization_servers: [] }, 'at least one'],
    [
      'an http authorization server',
      { resource: SERVER, authorization_servers: ['http://auth.example.com'] },
      'https',
    ],
    [
      'scopes that are not strings',
      { resource: SERVER, authorization_servers: [ISSUER], scopes_supported: [1] },
      'scopes',
    ],
    ['not an object', ['x'], 'JSON object'],
  ])('refuses %s', (_, doc, reason) => {
    expect(() => parseProtectedResource(doc, SERVER)).toThrow(reason);
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it('keeps the issuer and its token and registration endpoints', () => {
    expect(parseAuthorizationServer(AS_DOC, ISSUER)).toEqual({
      issuer: ISSUER,
      tokenEndpoint: `${ISSUER}/token`,
      registrationEndpoint: `${ISSUER}/register`,
    });
  });

  it.each([
    ['another issuer', { ...AS_DOC, issuer: 'https://evil.example' }, 'issuer'],
    ['an issuer differing by a slash', { ...AS_DOC, issuer: `${ISSUER}/` }, 'issuer'],
    ['no token endpoint', { ...AS_DOC, token_endpoint: undefined }, 'no token_endpoint'],
    ['no registration endpoint', { ...AS_DOC, registration_endpoint: undefined }, 'no registration_endpoint'],
    ['an http endpoint', { ...AS_DOC, token_endpoint: 'http://auth.example.com/token' }, 'https'],
    [
      'no client_credentials grant',
      { ...AS_DOC, grant_types_supported: ['authorization_code'] },
      'client_credentials',
    ],
  ])('refuses %s', (_, doc, reason) => {
    expect(() => parseAuthorizationServer(doc, ISSUER)).toThrow(reason);
  });
});
