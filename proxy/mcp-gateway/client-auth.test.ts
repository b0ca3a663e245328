import { describe, expect, it } from 'vitest';
import {
  authorizationServerUrl,
  challenge,
  clientAuthenticator,
  isLoopbackAddress,
  protectedResourceMetadata,
  resourceMetadataUrl,
} from './client-auth.ts';

describe('who is the agent in its pod', () => {
  it('is a loopback peer, IPv4, IPv6 or IPv4-mapped', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.7', '::ffff:10.0.0.7', 'fe80::1', '', undefined])
      expect(isLoopbackAddress(a)).toBe(false);
  });
});

describe('external clients', () => {
  const oauth = { issuer: 'https://auth.example.com', resourceUrl: 'https://agent.example.com/mcp' };

  it('find the issuer’s keys through its RFC 8414 metadata, path inserted', () => {
    expect(authorizationServerUrl('https://auth.example.com')).toBe(
      'https://auth.example.com/.well-known/oauth-authorization-server',
    );
    expect(authorizationServerUrl('https://auth.example.com/t/acme/')).toBe(
      'https://auth.example.com/.well-known/oauth-authorization-server/t/acme',
    );
  });

  it('find the RFC 9728 metadata through the challenge of a 401', () => {
    expect(resourceMetadataUrl(oauth.resourceUrl)).toBe(
      'https://agent.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(challenge(oauth, 'invalid_token')).toBe(
      'Bearer realm="mcp-gateway", error="invalid_token", resource_metadata="https://agent.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    expect(protectedResourceMetadata(oauth)).toMatchObject({
      resource: oauth.resourceUrl,
      authorization_servers: [oauth.issuer],
    });
  });

  it('are all refused when no issuer is configured, and have no metadata', async () => {
    expect(protectedResourceMetadata({})).toBeUndefined();
    expect(challenge({})).toBe('Bearer realm="mcp-gateway"');
    expect(await clientAuthenticator({}).verify('Bearer abc.def.ghi')).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
  });

  it('need a bearer token before anything is fetched', async () => {
    expect(await clientAuthenticator(oauth).verify(undefined)).toMatchObject({
      status: 401,
      detail: 'a bearer token is required',
    });
    expect(await clientAuthenticator(oauth).verify('Basic dXNlcjpwdw==')).toMatchObject({ status: 401 });
  });
});
