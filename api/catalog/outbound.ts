// The install flow's outbound requests: JSON in and out, a deadline and a
// size cap on every answer, no redirects followed (a 3xx is an answer, not a
// new destination), and failures said without the URL's secrets or the body.
export interface OutboundLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const OUTBOUND_LIMITS: OutboundLimits = { timeoutMs: 5_000, maxBytes: 64 * 1024 };

export interface JsonAnswer {
  status: number;
  /** The parsed body; undefined when it was empty or not JSON. */
  body: unknown;
}

export class OutboundError extends Error {
  constructor(
    readonly reason: 'timeout' | 'too_large' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes)
    throw new OutboundError('too_large', `the answer is larger than ${maxBytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).length;
    if (size > maxBytes) throw new OutboundError('too_large', `the answer is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function failure(err: unknown, limits: OutboundLimits): OutboundError {
  if (err instanceof OutboundError) return err;
  const name = (err as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new OutboundError('timeout', `no answer within ${limits.timeoutMs} ms`);
  const code = ((err as Error & { cause?: { code?: string } })?.cause?.code ?? 'the request failed').slice(
    0,
    64,
  );
  return new OutboundError('unreachable', code);
}

/** GET (no body) or POST (a JSON body) to `url`; the JSON answer, or an OutboundError. */
export async function requestJson(
  url: string,
  body: unknown,
  limits: OutboundLimits = OUTBOUND_LIMITS,
): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal,
    });
    return { status: res.status, body: parsed(await readCapped(res, limits.maxBytes)) };
  } catch (err) {
    throw failure(err, limits);
  }
}
