import { describe, expect, it } from 'vitest';
import {
  authorizationOf,
  closeReason,
  exitCodeOf,
  MAX_STDIN_BYTES,
  parseClientFrame,
  parseSubprotocols,
  SHELL_SUBPROTOCOL,
  subprotocolProblem,
  TOKEN_SUBPROTOCOL_PREFIX,
} from './protocol.ts';

const text = (v: unknown): string => JSON.stringify(v);

describe('client frames', () => {
  it('reads stdin and resize frames', () => {
    expect(parseClientFrame(text({ type: 'stdin', data: 'ls\n' }), false)).toEqual({
      type: 'stdin',
      data: 'ls\n',
    });
    expect(parseClientFrame(Buffer.from(text({ type: 'resize', cols: 120, rows: 40 })), false)).toEqual({
      type: 'resize',
      cols: 120,
      rows: 40,
    });
  });

  it.each([
    ['not JSON', '{', false, 'not JSON'],
    ['binary', text({ type: 'stdin', data: 'x' }), true, 'JSON text'],
    ['an array', '[1]', false, 'JSON object'],
    ['null', 'null', false, 'JSON object'],
    ['an unknown type', text({ type: 'exec', data: 'x' }), false, 'unknown frame type "exec"'],
    ['stdin without string data', text({ type: 'stdin', data: 5 }), false, 'string data'],
    ['a resize of 0 rows', text({ type: 'resize', cols: 80, rows: 0 }), false, 'integer cols and rows'],
    ['a fractional resize', text({ type: 'resize', cols: 80.5, rows: 24 }), false, 'integer cols and rows'],
  ])('refuses %s', (_what, message, binary, reason) => {
    expect(parseClientFrame(message, binary)).toContain(reason);
  });

  it('refuses stdin data over 64 KiB (counted in UTF-8 bytes)', () => {
    expect(parseClientFrame(text({ type: 'stdin', data: 'a'.repeat(MAX_STDIN_BYTES) }), false)).toMatchObject(
      {
        type: 'stdin',
      },
    );
    expect(
      parseClientFrame(text({ type: 'stdin', data: 'é'.repeat(MAX_STDIN_BYTES / 2 + 1) }), false),
    ).toMatch(/over 65536 bytes/);
  });
});

describe('subprotocols', () => {
  const token = 'pk_abc.def-123';
  const carrier = `${TOKEN_SUBPROTOCOL_PREFIX}${Buffer.from(token).toString('base64url')}`;

  it('reads the bearer token a browser offers beside the console subprotocol', () => {
    const p = parseSubprotocols(`${SHELL_SUBPROTOCOL}, ${carrier}`);
    expect(p).toEqual({ offered: [SHELL_SUBPROTOCOL, carrier], token });
    expect(authorizationOf(undefined, p)).toBe(`Bearer ${token}`);
    expect(subprotocolProblem(p.offered)).toBe('');
  });

  it('prefers the Authorization header when both are sent', () => {
    expect(authorizationOf('Bearer header-token', parseSubprotocols(carrier))).toBe('Bearer header-token');
  });

  it('has no credential without either', () => {
    expect(authorizationOf(undefined, parseSubprotocols(undefined))).toBe('');
  });

  it('refuses a token that is not base64url, and offers without the console subprotocol', () => {
    expect(parseSubprotocols(`${SHELL_SUBPROTOCOL}, ${TOKEN_SUBPROTOCOL_PREFIX}a+b/`).problem).toMatch(
      /base64url/,
    );
    expect(subprotocolProblem([carrier])).toContain(SHELL_SUBPROTOCOL);
    expect(subprotocolProblem([])).toBe('');
  });
});

describe('exit codes', () => {
  it('reads 0 from Success and the ExitCode cause from a failure', () => {
    expect(exitCodeOf({ status: 'Success' })).toBe(0);
    const failure = {
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    };
    expect(exitCodeOf(failure)).toBe(3);
  });

  it('is -1 when the exec said nothing or failed otherwise', () => {
    expect(exitCodeOf(undefined)).toBe(-1);
    expect(exitCodeOf({ status: 'Failure', message: 'container not found' })).toBe(-1);
  });
});

describe('close reasons', () => {
  it('fit the 123 bytes a close frame allows, without splitting a character', () => {
    const reason = closeReason('é'.repeat(100));
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).toBe('é'.repeat(61));
  });
});
