import { describe, expect, it } from 'vitest';
import { parseBody, readMessage } from './jsonrpc.ts';

describe('JSON-RPC messages', () => {
  it('tells requests, notifications and invalid messages apart', () => {
    expect(readMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({
      kind: 'request',
      id: 1,
      method: 'ping',
      params: {},
    });
    expect(readMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({
      kind: 'notification',
      method: 'notifications/initialized',
    });
    expect(readMessage({ jsonrpc: '2.0', id: 'a', method: 'x', params: [1] })).toMatchObject({
      kind: 'invalid',
      id: 'a',
      error: { code: -32602 },
    });
  });

  it('answers an invalid message with its id when it has a usable one, else null', () => {
    expect(readMessage({ jsonrpc: '2.0', id: 3 })).toMatchObject({
      kind: 'invalid',
      id: 3,
      error: { code: -32600 },
    });
    expect(readMessage({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' })).toMatchObject({
      kind: 'invalid',
      id: null,
    });
    expect(readMessage({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({
      kind: 'invalid',
      id: null,
    });
    expect(readMessage(null)).toMatchObject({ kind: 'invalid', id: null });
  });

  it('refuses a body that is not JSON, an empty batch and a batch over the limit as a whole', () => {
    expect(parseBody('{', 2)).toEqual({ error: { code: -32700, message: 'the body is not JSON' } });
    expect(parseBody('[]', 2)).toMatchObject({ error: { code: -32600 } });
    expect(parseBody('[1,2,3]', 2)).toMatchObject({
      error: { code: -32600, message: 'a batch holds at most 2 messages' },
    });
    expect(parseBody('[{"jsonrpc":"2.0","id":1,"method":"ping"}]', 2)).toMatchObject({ batch: true });
  });
});
