// The proxy's own answers to the agent, in the spec's error shape
// (`{detail, code}`), and the request-body reader that enforces the limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DataAccess } from '../../contract/egress.ts';

export interface RefusalInit {
  status: number;
  code: string;
  detail: string;
  outcome?: DataAccess['outcome'];
  approvalId?: string;
}

/** A refusal of one call; `code` says which step refused it. */
export class Refusal extends Error {
  readonly status: number;
  readonly code: string;
  readonly outcome: DataAccess['outcome'];
  readonly approvalId: string | undefined;
  constructor(r: RefusalInit) {
    super(r.detail);
    this.status = r.status;
    this.code = r.code;
    this.outcome = r.outcome ?? 'denied';
    this.approvalId = r.approvalId;
  }
}

export function answer(res: ServerResponse, r: Omit<RefusalInit, 'outcome'>): void {
  const body = JSON.stringify({
    detail: r.detail,
    code: r.code,
    ...(r.approvalId ? { approval_id: r.approvalId } : {}),
  });
  res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A last raw answer on a socket the HTTP parser gave up on, then close. */
export function rawAnswer(socket: Duplex, status: number, detail: string, code: string): void {
  const body = JSON.stringify({ detail, code });
  if (!(socket as { writable?: boolean }).writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${status === 501 ? 'Not Implemented' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const tooLarge = (max: number): Refusal =>
  new Refusal({ status: 413, code: 'body_too_large', detail: `request body over ${max} bytes` });

/** The whole body, or a 413 refusal past `max` bytes (the rest is not read). */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > max) return reject(tooLarge(max));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
