// Small HTTP helpers the policy and evidence routes share: the `{detail,
// code}` error body, a size-limited JSON body (or the one an outer body
// parser already put in `ctx.state.body`), and API-key checking.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';

export class RouteError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string,
  ) {
    super(detail);
  }
}

export function reply(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/** Runs `fn`, answering a RouteError as `{detail, code}` with its status. */
export async function guarded(ctx: Context, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof RouteError)) throw err;
    reply(ctx, err.status, { detail: err.detail, code: err.code });
  }
}

async function readRaw(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw new RouteError(413, `body over ${limitBytes} bytes`, 'payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new RouteError(413, `body over ${limitBytes} bytes`, 'payload_too_large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The JSON body, at most `limitBytes` (413 above it). */
export async function jsonBodyOf(ctx: Context, limitBytes: number): Promise<unknown> {
  const parsed = (ctx.state as { body?: unknown }).body;
  if (parsed !== undefined) {
    if (Buffer.byteLength(JSON.stringify(parsed)) > limitBytes) {
      throw new RouteError(413, `body over ${limitBytes} bytes`, 'payload_too_large');
    }
    return parsed;
  }
  const raw = await readRaw(ctx, limitBytes);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    throw new RouteError(400, `malformed JSON body: ${(err as Error).message}`, 'malformed_json');
  }
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** A bearer check against one key (PLATFORM_API_KEY), in constant time. */
export function apiKeyAuth(expected: string | undefined): (ctx: Context) => boolean {
  const want = expected ? digest(expected) : undefined;
  return (ctx) => {
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    return Boolean(want && m && timingSafeEqual(digest(m[1]!), want));
  };
}

export function requireAuth(
  ctx: Context,
  authenticate: (ctx: Context) => boolean | Promise<boolean>,
): Promise<void> {
  return Promise.resolve(authenticate(ctx)).then((ok) => {
    if (!ok) {
      ctx.set('www-authenticate', 'Bearer');
      throw new RouteError(401, 'missing, invalid or expired credentials', 'unauthenticated');
    }
  });
}
