// `platform run proxy` as a child process with real loopback upstreams: an
// HTTP server reached transparently (Host), a TLS server reached
// transparently (SNI, the proxy's TLS port pointed at it) and by CONNECT;
// clients that send garbage, nothing or a hello without SNI are closed; the
// ops endpoints answer on the same port; bad settings exit 2; SIGTERM drains
// and exits 0.
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../../hack/control-plane/certs.ts';
import { until } from './fixtures/gateway.ts';
import { freePort, REPO_ROOT, spawnPlatform, type AuditorChild } from './fixtures/loopback.ts';

const cert = issueCertificate({
  commonName: 'localhost',
  dnsNames: ['localhost'],
  ipAddresses: ['127.0.0.1'],
  serverAuth: true,
  validDays: 1,
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Everything the peer sends until it closes the connection. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
  });
}

/** Connects to the proxy, sends `bytes` (nothing when empty) and reads until the proxy closes. */
function exchange(port: number, bytes: string | Buffer): Promise<string> {
  const socket = tcpConnect(port, '127.0.0.1');
  if (bytes.length > 0) socket.write(bytes);
  return readAll(socket);
}

/** Resolves with the bytes up to the end of the first response head, leaving the socket open. */
function readHead(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer): void => {
      out += c.toString('latin1');
      if (!out.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve(out);
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed after ${JSON.stringify(out)}`)));
  });
}

async function connectTunnel(proxyPort: number, target: string): Promise<{ socket: Socket; head: string }> {
  const socket = tcpConnect(proxyPort, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  return { socket, head: await readHead(socket) };
}

/** A GET over TLS on an open socket or straight to the proxy; resolves with the whole response. */
function tlsGet(options: ConnectionOptions, path: string): Promise<string> {
  const tls = tlsConnect({ servername: 'localhost', ca: cert.certPem, ...options });
  tls.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  return readAll(tls);
}

describe('platform run proxy', () => {
  let proxy: AuditorChild;
  let httpUpstream: Server;
  let tlsUpstream: Server;
  let httpPort: number;

  beforeAll(async () => {
    httpUpstream = createHttpServer((req, res) => res.end(`plain ${req.url}`));
    httpPort = await listen(httpUpstream);
    tlsUpstream = createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) =>
      res.end(`secure ${req.url}`),
    );
    const tlsPort = await listen(tlsUpstream);
    proxy = spawnPlatform(
      ['proxy'],
      {
        PLATFORM_PROXY_HOST: '127.0.0.1',
        PLATFORM_PROXY_TLS_PORT: String(tlsPort),
        PLATFORM_PROXY_HEAD_TIMEOUT: '300ms',
        PLATFORM_PROXY_DRAIN_TIMEOUT: '300ms',
        PLATFORM_MODEL_CIDRS: '10.96.0.0/16',
        PLATFORM_MODEL_PORTS: '11434',
      },
      await freePort(),
    );
    await until(
      async () => ((await fetch(`${proxy.url}/readyz`)).ok ? true : undefined),
      45_000,
      'proxy ready',
    );
  });

  afterAll(async () => {
    await proxy?.stop();
    httpUpstream?.close();
    tlsUpstream?.close();
  });

  const proxyPort = (): number => Number(new URL(proxy.url).port);

  it('forwards transparent HTTP by its Host header', async () => {
    const request = `GET /hello?token=s3cret HTTP/1.1\r\nHost: 127.0.0.1:${httpPort}\r\nConnection: close\r\n\r\n`;
    const response = await exchange(proxyPort(), request);
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response).toContain('plain /hello?token=s3cret');
  });

  it('forwards transparent TLS by SNI to the TLS port, without terminating it', async () => {
    const response = await tlsGet({ host: '127.0.0.1', port: proxyPort() }, '/transparent');
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response).toContain('secure /transparent');
  });

  it('tunnels CONNECT to the TLS server', async () => {
    const tlsPort = (tlsUpstream.address() as AddressInfo).port;
    const { socket, head } = await connectTunnel(proxyPort(), `localhost:${tlsPort}`);
    expect(head).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
    const response = await tlsGet({ socket }, '/via-connect');
    expect(response).toContain('secure /via-connect');
  });

  it('answers CONNECT with 502 when the upstream refuses and 400 for a bad target', async () => {
    const closed = await freePort();
    const refused = await exchange(proxyPort(), `CONNECT 127.0.0.1:${closed} HTTP/1.1\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    expect(refused).toContain('ECONNREFUSED');
    const bad = await exchange(proxyPort(), 'CONNECT nowhere HTTP/1.1\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });

  it('refuses model destinations and link-local metadata addresses with 403 (they go through the gateway)', async () => {
    for (const target of ['10.96.3.4:443', '127.0.0.1:11434', '169.254.169.254:80']) {
      const answer = await exchange(proxyPort(), `CONNECT ${target} HTTP/1.1\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    }
    const metadata = await exchange(
      proxyPort(),
      'GET /latest/meta-data HTTP/1.1\r\nHost: 169.254.169.254\r\n\r\n',
    );
    expect(metadata).toMatch(/^HTTP\/1\.1 403 Forbidden/);
  });

  it('answers a malformed head with 400 and closes', async () => {
    const response = await exchange(proxyPort(), 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });

  it('closes clients that send garbage, nothing, too much or a hello without SNI', async () => {
    expect(await exchange(proxyPort(), Buffer.from([0x00, 0xff, 0x13, 0x37]))).toBe('');
    expect(await exchange(proxyPort(), '')).toBe('');
    expect(await exchange(proxyPort(), Buffer.from([0x16, 0x03, 0x01, 0x40, 0x01]))).toBe('');
    const huge = `GET / HTTP/1.1\r\nX: ${'a'.repeat(40_000)}`;
    expect(await exchange(proxyPort(), huge)).toMatch(/^HTTP\/1\.1 431 /);
    // Node's TLS client sends no SNI when it connects to an IP address.
    const noSni = tlsConnect({ host: '127.0.0.1', port: proxyPort(), rejectUnauthorized: false });
    expect(await readAll(noSni)).toBe('');
  });

  it('serves /healthz, /readyz and /metrics on the proxy port', async () => {
    const health = await fetch(`${proxy.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', failures: [] });
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    for (const series of [
      'platform_proxy_connections_total{kind="http",outcome="ok",role="proxy"} 1',
      'platform_proxy_connections_total{kind="tls",outcome="ok",role="proxy"} 1',
      'platform_proxy_connections_total{kind="connect",outcome="ok",role="proxy"} 1',
      'platform_proxy_connections_total{kind="connect",outcome="upstream-error",role="proxy"} 1',
      'platform_proxy_connections_total{kind="unknown",outcome="unsupported",role="proxy"} 1',
      'platform_proxy_connections_total{kind="unknown",outcome="timeout",role="proxy"} 1',
      'platform_proxy_connections_total{kind="tls",outcome="malformed",role="proxy"} 1',
      'platform_proxy_connections_total{kind="tls",outcome="no-sni",role="proxy"} 1',
      'platform_proxy_connections_total{kind="http",outcome="too-large",role="proxy"} 1',
    ]) {
      expect(metrics).toContain(series);
    }
    expect(metrics).toMatch(/platform_proxy_bytes_total\{direction="down",role="proxy"\} [1-9]/);
    expect(metrics).toMatch(/platform_proxy_upstream_connect_seconds_count\{[^}]*kind="tls"[^}]*\} 1\n/);
  });

  it('logs destinations and outcomes, never the query string', () => {
    const lines = proxy
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ kind: 'http', destination: `127.0.0.1:${httpPort}`, outcome: 'ok' }),
    );
    expect(proxy.output()).not.toContain('s3cret');
  });

  it('drains on SIGTERM: closes a tunnel still open after the drain time and exits 0', async () => {
    const { socket, head } = await connectTunnel(proxyPort(), `127.0.0.1:${httpPort}`);
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    const tunnelClosed = readAll(socket);
    expect(await proxy.stop()).toBe(0);
    await tunnelClosed;
    expect(proxy.output()).toContain('"outcome":"shutdown"');
  });
});

describe('platform run proxy settings', () => {
  it('reports every bad value and exits 2', () => {
    const res = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'platform.js'), 'run', 'proxy'], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        PORT: 'nope',
        PLATFORM_PROXY_IDLE_TIMEOUT: 'forever',
        PLATFORM_PROXY_MAX_CONNECTIONS: '0',
        PLATFORM_MODEL_CIDRS: '10.0.0.0/40',
        PLATFORM_MODEL_PORTS: '0',
      },
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('PORT="nope"');
    expect(res.stderr).toContain('PLATFORM_PROXY_IDLE_TIMEOUT="forever"');
    expect(res.stderr).toContain('PLATFORM_PROXY_MAX_CONNECTIONS="0"');
    expect(res.stderr).toContain('PLATFORM_MODEL_CIDRS: "10.0.0.0/40" is not an IPv4 CIDR');
    expect(res.stderr).toContain('PLATFORM_MODEL_PORTS: "0" is not a port');
  });
});
