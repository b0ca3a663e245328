import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, parseJsonBody, validateClaimsRequest } from './validate-request.ts';

const ok = { data: { input: 'hi', metadata: { model_id: 'gpt-4o' } }, phase: 'request' };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function problemsOf(body: unknown, phases?: Parameters<typeof validateClaimsRequest>[1]): string[] {
  const v = validateClaimsRequest(body, phases);
  return v.ok ? [] : v.problems;
}

describe('claims request validation', () => {
  it('accepts a request-phase and a response-phase request', () => {
    expect(validateClaimsRequest(ok).ok).toBe(true);
    expect(validateClaimsRequest({ data: { input: 'q', output: 'a' }, phase: 'response' }).ok).toBe(true);
  });

  it('accepts unknown top-level fields (minor versions add optional fields)', () => {
    expect(validateClaimsRequest({ ...ok, schema_version: '2.1' }).ok).toBe(true);
  });

  it.each([
    [[1, 2], 'the body must be a JSON object (got array)'],
    [{ phase: 'request' }, 'data is required'],
    [{ data: 'x', phase: 'request' }, 'data must be an object (got string)'],
    [{ data: {}, phase: 'request' }, 'data.input is required'],
    [{ data: { input: 5 }, phase: 'request' }, 'data.input must be a string (got number)'],
    [{ data: { input: 'q' }, phase: 'response' }, 'data.output is required in the response phase'],
    [{ data: { input: 'q', output: ['a'] }, phase: 'response' }, 'data.output must be a string (got array)'],
    [{ data: { input: 'q', metadata: [] }, phase: 'request' }, 'data.metadata must be an object (got array)'],
    [
      { data: { input: 'q', metadata: { model_id: 4 } }, phase: 'request' },
      'data.metadata.model_id must be a string',
    ],
    [{ data: { input: 'q' } }, 'phase is required'],
    [
      { data: { input: 'q' }, phase: 'audit' },
      'phase must be one of request, response, artifact, execution (got "audit")',
    ],
    [{ ...ok, platform_context: 'x' }, 'platform_context must be an object'],
    [{ ...ok, platform_context: { trace_id: 1 } }, 'platform_context.trace_id must be a string (got number)'],
    [
      { ...ok, platform_context: { auditor_config: [] } },
      'platform_context.auditor_config must be an object',
    ],
    [
      { ...ok, platform_context: { detection_overrides: { a: 1 } } },
      'platform_context.detection_overrides.a must be an object',
    ],
    [
      { ...ok, platform_context: { detection_overrides: { a: { t: {} } } } },
      'detection_overrides.a.t must be a number, boolean',
    ],
  ])('refuses %j: %s', (body, expected) => {
    expect(problemsOf(body).join('\n')).toContain(expected);
  });

  it('collects every problem at once', () => {
    expect(problemsOf({ data: { input: 1 }, phase: 'x', platform_context: 2 })).toHaveLength(3);
  });

  it('refuses a phase the auditor does not serve, naming the ones it does', () => {
    expect(problemsOf({ data: { input: 'q' }, phase: 'artifact' }, ['request', 'response'])).toEqual([
      "phase 'artifact' is not supported by this auditor (supported: request, response)",
    ]);
  });
});

describe('JSON body parsing', () => {
  it('parses a valid body', () => {
    expect(parseJsonBody(enc(JSON.stringify(ok)))).toEqual({ ok: true, value: ok });
  });

  it('refuses invalid UTF-8', () => {
    expect(parseJsonBody(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]))).toEqual({
      ok: false,
      message: 'the body is not valid UTF-8',
    });
  });

  it('refuses non-JSON and empty bodies', () => {
    const bad = parseJsonBody(enc('data=1'));
    expect(bad.ok === false && bad.message).toMatch(/^the body is not valid JSON/);
    expect(parseJsonBody(enc('  '))).toMatchObject({ ok: false, message: expect.stringContaining('empty') });
  });

  it('refuses deep nesting before parsing, with the limit in details', () => {
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseJsonBody(enc(deep), 32)).toEqual({
      ok: false,
      message: 'the body is nested deeper than 32 levels',
      details: { max_depth: 32 },
    });
  });

  it('counts nesting outside strings only', () => {
    expect(jsonNestingDepth('{"a":"[[[[{{{{\\"[[","b":[1,[2]]}')).toBe(3);
  });
});
