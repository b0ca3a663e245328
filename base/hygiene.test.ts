import { describe, expect, it } from 'vitest';
import { assertClean, bodyProblem, paramsProblem, refusedCharacter } from './hygiene.ts';

describe('refusedCharacter', () => {
  it.each([
    ['\u007f', 'U+007F'],
    ['\u0091', 'U+0091'],
    ['\u009f', 'U+009F'],
    ['\u0080', 'U+0080'],
    ['\u0000', 'U+0000'],
    ['\u001b[31m', 'U+001B'],
    ['\ud800', 'U+D800'],
    ['\udc00x', 'U+DC00'],
    ['\ufffe', 'U+FFFE'],
    ['\uffff', 'U+FFFF'],
  ])('refuses %j everywhere', (bad, code) => {
    expect(refusedCharacter(`ab${bad}`)).toBe(`${code} at position 2`);
    expect(refusedCharacter(`ab${bad}`, true)).toBe(`${code} at position 2`);
  });

  it.each(['\t', '\n', '\r', '\u2028', '\u2029', '\u202e', '\u2066', '\u2069'])(
    'refuses %j in identifiers, allows it in free text',
    (layout) => {
      expect(refusedCharacter(`a${layout}b`)).toMatch(/^U\+[0-9A-F]{4} at position 1$/);
      expect(refusedCharacter(`a${layout}b`, true)).toBeUndefined();
    },
  );

  it('accepts ordinary text in any script, emoji and the characters right beside the refused ranges', () => {
    for (const ok of [
      'olivia@example.com',
      'Ünïcødé',
      'שלום',
      '日本語',
      '🙂 👍🏽',
      '\u00a0',
      '~ \u0020',
      '\ufffd',
    ]) {
      expect(refusedCharacter(ok), ok).toBeUndefined();
    }
  });
});

describe('bodyProblem', () => {
  it('names the field by its pointer', () => {
    const body = {
      spec: {
        owners: [
          { subject: 'a@x', role: 'Owner' },
          { subject: 'b\u0091@x', role: 'Editor' },
        ],
      },
    };
    expect(bodyProblem(body)).toEqual({ field: 'body/spec/owners/1/subject', what: 'U+0091 at position 1' });
  });

  it('allows line breaks only in free-text fields, including their array items', () => {
    expect(bodyProblem({ description: 'line one\nline two', decision_reasons: ['a\tb'] })).toBeUndefined();
    expect(bodyProblem({ target: 'x\ny' })).toEqual({ field: 'body/target', what: 'U+000A at position 1' });
    expect(bodyProblem({ description: 'ok\u007f' })?.field).toBe('body/description');
  });

  it('checks keys and spells a bad key out instead of echoing it', () => {
    const p = bodyProblem({ details: { 'a/b\u009fc': 1 } });
    expect(p).toEqual({ field: 'body/details/a~1bU+009Fc', what: 'key holds U+009F at position 3' });
  });

  it('walks deeply nested bodies without overflowing the stack', () => {
    let deep: unknown = 'x\u007f';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(bodyProblem(deep)?.what).toBe('U+007F at position 1');
  });

  it('walks very wide bodies, reporting the first bad item in order', () => {
    const wide: unknown[] = Array.from({ length: 300_000 }, () => 0);
    wide[299_998] = 'a\u007f';
    wide[299_999] = 'b\u0091';
    expect(bodyProblem({ items: wide })).toEqual({
      field: 'body/items/299998',
      what: 'U+007F at position 1',
    });
  });

  it('accepts clean bodies and non-string values', () => {
    expect(bodyProblem(undefined)).toBeUndefined();
    expect(bodyProblem({ a: [1, true, null, { b: 'c' }], n: 3 })).toBeUndefined();
  });
});

describe('paramsProblem and assertClean', () => {
  it('names path and query parameters', () => {
    expect(paramsProblem('path', { agent_id: 'ns.a', subject: 'x\u007f' })?.field).toBe('path subject');
    expect(paramsProblem('query', { 'li\nmit': '1' })).toEqual({
      field: 'query liU+000Amit',
      what: 'name holds U+000A at position 2',
    });
    expect(paramsProblem('query', { limit: '10' })).toBeUndefined();
  });

  it('throws 422 control_characters whose detail names the field and holds no refused character', () => {
    let thrown: unknown;
    try {
      assertClean(bodyProblem({ target: 'evil\u009b31m' }));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ status: 422, code: 'control_characters' });
    const detail = (thrown as { detail: string }).detail;
    expect(detail).toMatch(/^body\/target: U\+009B at position 4;/);
    expect(refusedCharacter(detail)).toBeUndefined();
  });
});
