import { describe, expect, it } from 'vitest';
import { actionOf, forwardHeaders, responseHeaders, targetOf, userOf } from './http-facts.ts';

const jwt = (payload: object): string =>
  `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('actionOf', () => {
  it('reads are safe, DELETE deletes, everything else writes', () => {
    expect(['GET', 'HEAD', 'OPTIONS'].map(actionOf)).toEqual(['read', 'read', 'read']);
    expect(actionOf('DELETE')).toBe('delete');
    expect(['POST', 'PUT', 'PATCH', 'PROPFIND', 'get'].map(actionOf)).toEqual([
      'write',
      'write',
      'write',
      'write',
      'read',
    ]);
  });
});

describe('targetOf', () => {
  const plain = { scheme: 'http', defaultPort: 8443 } as const;
  it('goes by Host, with the original port when Host names none', () => {
    expect(targetOf('/a/b?x=1', '10.0.0.5', plain)).toEqual({
      destination: { host: '10.0.0.5', port: 8443 },
      pathAndQuery: '/a/b?x=1',
      path: '/a/b',
    });
    expect(targetOf('/', 'api.example.com:9000', plain)).toMatchObject({
      destination: { host: 'api.example.com', port: 9000 },
    });
  });
  it('prefers an absolute-form URL over Host', () => {
    expect(targetOf('http://api.example.com/v1?q', 'other.example', plain)).toMatchObject({
      destination: { host: 'api.example.com', port: 8443 },
      pathAndQuery: '/v1?q',
      path: '/v1',
    });
  });
  it('refuses what names no destination or hides credentials in the authority', () => {
    expect(targetOf('/', undefined, plain)).toEqual({ status: 400, reason: 'missing Host' });
    expect(targetOf('http://user:pw@api.example.com/', undefined, plain)).toMatchObject({ status: 400 });
    expect(targetOf('*', 'a.example', plain)).toMatchObject({ status: 400 });
    expect(targetOf('/', 'bad host', plain)).toMatchObject({ status: 400, reason: 'bad Host' });
  });
  it('inside intercepted TLS, refuses another host (421) and keeps the tunnel port', () => {
    const tls = { scheme: 'https', tlsHost: 'api.example.com', defaultPort: 443 } as const;
    expect(targetOf('/', 'api.example.com:1234', tls)).toMatchObject({
      destination: { host: 'api.example.com', port: 443 },
    });
    expect(targetOf('/', 'evil.example', tls)).toMatchObject({ status: 421 });
  });
});

describe('userOf', () => {
  it('reads the configured claim, unverified, and nothing from garbage', () => {
    expect(userOf(jwt({ sub: 'alice', email: 'a@x' }), 'sub')).toBe('alice');
    expect(userOf(jwt({ sub: 'alice', email: 'a@x' }), 'email')).toBe('a@x');
    expect(userOf('not-a-jwt', 'sub')).toBe('');
    expect(userOf('a.%%%.c', 'sub')).toBe('');
    expect(userOf(undefined, 'sub')).toBe('');
  });
});

describe('forwardHeaders', () => {
  const raw = [
    'Host',
    'api.example.com',
    'Authorization',
    'Bearer agent-made',
    'Connection',
    'keep-alive, X-Drop-Me',
    'X-Drop-Me',
    '1',
    'Proxy-Authorization',
    'Basic x',
    'X-Platform-Subject-Token',
    'user.jwt.token',
    'Transfer-Encoding',
    'chunked',
    'Accept',
    'application/json',
  ];
  it("drops hop-by-hop headers, those Connection names, the subject token and the agent's own credential", () => {
    const out = forwardHeaders(raw, {
      set: { Authorization: 'Bearer injected' },
      strip: ['authorization', 'cookie'],
    });
    expect(out).toEqual([
      'Host',
      'api.example.com',
      'Accept',
      'application/json',
      'Authorization',
      'Bearer injected',
    ]);
  });
  it('without an injection keeps the end-to-end headers but never the subject token', () => {
    const out = forwardHeaders(raw, undefined);
    expect(out).toEqual([
      'Host',
      'api.example.com',
      'Authorization',
      'Bearer agent-made',
      'Accept',
      'application/json',
    ]);
  });
  it('strips hop-by-hop headers from responses', () => {
    expect(responseHeaders(['Content-Type', 'x', 'Connection', 'close', 'Keep-Alive', '5'])).toEqual([
      'Content-Type',
      'x',
    ]);
  });
});
