// The sidecars' listener: `::` answers over IPv4 and IPv6 (both families are
// redirected to it), and where IPv6 is off it falls back to 0.0.0.0.
import { EventEmitter } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenDualStack } from '../../base/listen.ts';

const reach = (host: string, port: number): Promise<string> =>
  new Promise((resolve) => {
    const s = connect({ host, port });
    let out = '';
    s.on('data', (d: Buffer) => (out += d.toString()));
    s.on('end', () => resolve(out));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(`error:${e.code}`));
  });

describe('listenDualStack', () => {
  it('serves IPv4 and IPv6 clients on ::', async () => {
    const server = createServer((c) => c.end('hello'));
    await listenDualStack(server, 0, '::');
    const { port } = server.address() as { port: number };
    expect(await reach('127.0.0.1', port)).toBe('hello');
    expect(await reach('::1', port)).toBe('hello');
    server.close();
  });

  it('falls back to 0.0.0.0 when the node has no IPv6, and passes other errors on', async () => {
    const attempts: string[] = [];
    const fake = (failWith: string): Server => {
      const emitter = new EventEmitter();
      const listen = (_port: number, host: string, done: () => void): EventEmitter => {
        attempts.push(host);
        const fail = Object.assign(new Error(failWith), { code: failWith });
        queueMicrotask(() => (host === '::' ? emitter.emit('error', fail) : done()));
        return emitter;
      };
      return Object.assign(emitter, { listen }) as unknown as Server;
    };
    await listenDualStack(fake('EAFNOSUPPORT'), 8088, '::');
    expect(attempts).toEqual(['::', '0.0.0.0']);
    await expect(listenDualStack(fake('EADDRINUSE'), 8088, '::')).rejects.toThrow('EADDRINUSE');
  });
});
