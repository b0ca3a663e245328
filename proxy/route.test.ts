import { describe, expect, it } from 'vitest';
import { parseHead } from './http-head.ts';
import {
  formatDestination,
  isSelf,
  parseAuthority,
  routeHead,
  type Route,
  type RouteOptions,
} from './route.ts';

const OPTIONS: RouteOptions = { plainPort: 80, listenPort: 8088, ownAddresses: new Set(['10.1.2.3']) };

const route = (text: string, o = OPTIONS): Route => {
  const r = parseHead(Buffer.from(`${text}\r\n\r\n`, 'latin1'));
  if (r.kind !== 'head') throw new Error(`bad test head: ${text}`);
  return routeHead(r.head, o);
};

describe('parseAuthority', () => {
  it('reads host names, IPv4 and bracketed IPv6 with or without a port', () => {
    expect(parseAuthority('Example.COM:8443')).toEqual({ host: 'example.com', port: 8443 });
    expect(parseAuthority('example.com', 80)).toEqual({ host: 'example.com', port: 80 });
    expect(parseAuthority('10.0.0.1:1')).toEqual({ host: '10.0.0.1', port: 1 });
    expect(parseAuthority('[::1]:443')).toEqual({ host: '::1', port: 443 });
    expect(parseAuthority('[2001:DB8::1]', 80)).toEqual({ host: '2001:db8::1', port: 80 });
  });

  it('refuses a missing or bad port, userinfo, bad hosts and bare IPv6', () => {
    for (const bad of [
      'example.com',
      'example.com:0',
      'example.com:65536',
      'example.com:x',
      'u@h:1',
      '::1:443',
    ]) {
      expect(parseAuthority(bad), bad).toBeUndefined();
    }
    expect(parseAuthority('[zz]:1')).toBeUndefined();
    expect(parseAuthority('a b:1')).toBeUndefined();
    expect(parseAuthority('', 80)).toBeUndefined();
  });

  it('formats IPv6 destinations in brackets', () => {
    expect(formatDestination({ host: '::1', port: 443 })).toBe('[::1]:443');
    expect(formatDestination({ host: 'a.example', port: 80 })).toBe('a.example:80');
  });
});

describe('routeHead', () => {
  it('tunnels CONNECT host:port and refuses a target without a port', () => {
    expect(route('CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443')).toEqual({
      kind: 'connect',
      destination: { host: 'api.example.com', port: 443 },
    });
    expect(route('CONNECT api.example.com HTTP/1.1')).toMatchObject({ kind: 'bad' });
  });

  it('forwards transparent HTTP by Host, with the plain port when Host names none', () => {
    expect(route('GET /x HTTP/1.1\r\nHost: a.example')).toEqual({
      kind: 'forward',
      destination: { host: 'a.example', port: 80 },
    });
    expect(route('GET /x HTTP/1.1\r\nHost: a.example', { ...OPTIONS, plainPort: 8080 })).toMatchObject({
      destination: { port: 8080 },
    });
    expect(route('POST /healthz HTTP/1.1\r\nHost: 127.0.0.1:9000')).toMatchObject({
      kind: 'forward',
      destination: { host: '127.0.0.1', port: 9000 },
    });
  });

  it('forwards absolute-form requests to the URL, refusing https URLs', () => {
    expect(route('GET http://b.example:81/p?q HTTP/1.1\r\nHost: other')).toEqual({
      kind: 'forward',
      destination: { host: 'b.example', port: 81 },
    });
    expect(route('GET https://b.example/ HTTP/1.1')).toEqual({
      kind: 'bad',
      reason: 'https URLs need CONNECT',
    });
    expect(route('OPTIONS * HTTP/1.1\r\nHost: a')).toMatchObject({ kind: 'bad' });
  });

  it('answers probes and scrapes locally: no Host, localhost, loopback or the pod address on the proxy port', () => {
    expect(route('GET /healthz HTTP/1.1')).toEqual({ kind: 'local', path: '/healthz' });
    expect(route('GET /readyz HTTP/1.1\r\nHost: localhost')).toEqual({ kind: 'local', path: '/readyz' });
    expect(route('GET /metrics HTTP/1.1\r\nHost: 10.1.2.3:8088')).toEqual({
      kind: 'local',
      path: '/metrics',
    });
    expect(route('HEAD /healthz?x=1 HTTP/1.1\r\nHost: [::1]:8088')).toEqual({
      kind: 'local',
      path: '/healthz',
    });
    expect(route('GET http://127.0.0.1:8088/metrics HTTP/1.1')).toEqual({ kind: 'local', path: '/metrics' });
  });

  it('forwards the same paths to other hosts and other local ports', () => {
    expect(route('GET /healthz HTTP/1.1\r\nHost: svc.example')).toMatchObject({ kind: 'forward' });
    expect(route('GET /metrics HTTP/1.1\r\nHost: 10.1.2.3:9090')).toMatchObject({ kind: 'forward' });
  });

  it('refuses a missing or bad Host and a request to the proxy itself', () => {
    expect(route('GET / HTTP/1.0')).toEqual({ kind: 'bad', reason: 'missing Host' });
    expect(route('GET / HTTP/1.1\r\nHost: a b')).toEqual({ kind: 'bad', reason: 'bad Host' });
    expect(route('GET / HTTP/1.1\r\nHost: 10.1.2.3:8088')).toMatchObject({ kind: 'loop' });
    expect(route('CONNECT localhost:8088 HTTP/1.1')).toMatchObject({ kind: 'loop' });
  });
});

describe('isSelf', () => {
  it('is the proxy port on a local address only', () => {
    expect(isSelf({ host: 'localhost', port: 8088 }, OPTIONS)).toBe(true);
    expect(isSelf({ host: '127.0.0.5', port: 8088 }, OPTIONS)).toBe(true);
    expect(isSelf({ host: 'localhost', port: 443 }, OPTIONS)).toBe(false);
    expect(isSelf({ host: 'a.example', port: 8088 }, OPTIONS)).toBe(false);
  });
});
