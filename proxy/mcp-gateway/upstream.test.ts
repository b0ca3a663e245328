import { describe, expect, it } from 'vitest';
import { answerMessages, serverAddress, serverUrlProblem } from './upstream.ts';

describe('the MCP servers the gateway speaks to', () => {
  it('are https only while mTLS is on; plain http also without it', () => {
    expect(serverUrlProblem('https://crm.example.com/mcp', true)).toBeUndefined();
    expect(serverUrlProblem('http://127.0.0.1:9000/mcp', true)).toMatch(/requires https/);
    expect(serverUrlProblem('http://crm.svc:9000/mcp', false)).toBeUndefined();
    expect(serverUrlProblem('https://user:pw@crm.example.com/', false)).toBe('carries credentials');
    expect(serverUrlProblem('ftp://crm.example.com/', false)).toBe('is neither http nor https');
    expect(serverUrlProblem('crm', false)).toBe('is not an absolute URL');
  });

  it('are addressed by host and port for the access check', () => {
    expect(serverAddress('https://CRM.example.com/mcp')).toEqual({ host: 'crm.example.com', port: 443 });
    expect(serverAddress('http://[::1]:8080/mcp')).toEqual({ host: '::1', port: 8080 });
  });
});

describe('an answer', () => {
  it('is a JSON body or the data of each SSE event', () => {
    expect(answerMessages('application/json', '{"id":1}')).toEqual([{ id: 1 }]);
    const sse =
      'event: message\nid: a\ndata: {"id":1,\ndata: "result":{}}\n\n: comment\n\ndata: {"id":2}\n\n';
    expect(answerMessages('text/event-stream', sse)).toEqual([{ id: 1, result: {} }, { id: 2 }]);
    expect(answerMessages('application/json', 'not json')).toEqual([]);
  });
});
