import { describe, expect, it } from 'vitest';
import { canonicalize, CanonicalizationError } from './canonical.ts';

describe('canonical JSON (RFC 8785)', () => {
  it('serialises numbers as ECMAScript does (RFC 8785 appendix B samples)', () => {
    expect(
      canonicalize([1e30, 4.5, 0.002, 0.000001, 1e-7, -0, 333333333.3333333, 1e21, 9007199254740992]),
    ).toBe('[1e+30,4.5,0.002,0.000001,1e-7,0,333333333.3333333,1e+21,9007199254740992]');
  });

  it('sorts members by UTF-16 code units, recursively', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalize(input)) as object);
    expect(canonicalize(input).startsWith('{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö"')).toBe(
      true,
    );
    expect(keys).toHaveLength(7);
    expect(canonicalize({ b: { d: 1, c: [true, null] }, a: 'x' })).toBe(
      '{"a":"x","b":{"c":[true,null],"d":1}}',
    );
  });

  it('escapes strings minimally, as JSON.stringify does', () => {
    expect(canonicalize({ s: '\u000f\n"\\/\u2028é' })).toBe('{"s":"\\u000f\\n\\"\\\\/\u2028é"}');
  });

  it('drops undefined members and refuses what JSON cannot carry', () => {
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalize({ n: Number.NaN })).toThrow(CanonicalizationError);
    expect(() => canonicalize({ n: Infinity })).toThrow(CanonicalizationError);
    expect(() => canonicalize({ s: '\ud800' })).toThrow(CanonicalizationError);
    expect(() => canonicalize({ b: 1n })).toThrow(CanonicalizationError);
  });

  it('is independent of member order and whitespace of the input', () => {
    const a = JSON.parse('{ "z": [1, 2.50, {"y": 1, "x": 2}], "a": "b" }') as unknown;
    const b = JSON.parse('{"a":"b","z":[1,2.5,{"x":2,"y":1}]}') as unknown;
    expect(canonicalize(a)).toBe(canonicalize(b));
  });
});
