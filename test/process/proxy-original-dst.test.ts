// SO_ORIGINAL_DST through koffi on a real socket: a connection that was not
// redirected names the proxy itself, which reads as "no original destination".
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { originalDestination } from '../../proxy/original-dst.ts';

describe('originalDestination', () => {
  it('is undefined for a connection that was not redirected (it names the proxy itself)', async () => {
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer((s) => {
        resolve(s);
        server.close();
      }).listen(0, '127.0.0.1', () => {
        const c = connect((server.address() as { port: number }).port, '127.0.0.1');
        c.on('error', () => undefined);
        setTimeout(() => c.destroy(), 200);
      });
    });
    const socket = await accepted;
    expect(originalDestination(socket)).toBeUndefined();
    socket.destroy();
  });
});
