import { describe, expect, it } from 'vitest';
import { PLAIN_STRING_PATTERN } from '../crds/schema/parts.ts';
import { FREE_TEXT_CHARACTERS, IDENTIFIER_CHARACTERS, refusedCharacter } from '../base/hygiene.ts';
import { withCharacterRule } from './openapi-characters.ts';

/**
 * Every code point of the BMP but the surrogates, and a few astral ones: the
 * document's patterns and the check agree. (A lone surrogate is refused by the
 * API and left out of the document: no pattern over scalar values names it.)
 */
const SAMPLES = [
  ...Array.from({ length: 0x10000 }, (_, cp) => String.fromCharCode(cp)).filter(
    (c) => c < '\ud800' || c > '\udfff',
  ),
  '😀',
  '\u{10FFFF}',
];

describe('the character rule in the OpenAPI document', () => {
  it('refuses exactly what the API refuses, for identifiers and for free text', () => {
    const identifier = new RegExp(IDENTIFIER_CHARACTERS, 'u');
    const freeText = new RegExp(FREE_TEXT_CHARACTERS, 'u');
    const disagree = SAMPLES.filter(
      (s) =>
        identifier.test(s) !== (refusedCharacter(s) === undefined) ||
        freeText.test(s) !== (refusedCharacter(s, true) === undefined),
    );
    expect(disagree.map((s) => s.codePointAt(0)!.toString(16))).toEqual([]);
  });

  it('patterns open strings by field name, keeps specific patterns, and constrains map keys', () => {
    const schema = withCharacterRule({
      type: 'object',
      properties: {
        subject: { type: 'string' },
        reason: { type: 'string', pattern: PLAIN_STRING_PATTERN },
        id: { type: 'string', pattern: '^[a-z]+$' },
        at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        settings: { type: 'object', additionalProperties: { type: 'string' } },
      },
      additionalProperties: false,
    });
    const p = schema.properties as Record<string, Record<string, unknown>>;
    expect(p.subject!.pattern).toBe(IDENTIFIER_CHARACTERS);
    expect(p.reason!.pattern).toBe(FREE_TEXT_CHARACTERS);
    expect(p.id!.pattern).toBe('^[a-z]+$');
    expect(p.at!.pattern).toBeUndefined();
    expect((p.tags!.items as Record<string, unknown>).pattern).toBe(IDENTIFIER_CHARACTERS);
    expect(p.settings!.propertyNames).toEqual({ pattern: IDENTIFIER_CHARACTERS });
    expect((p.settings!.additionalProperties as Record<string, unknown>).pattern).toBe(IDENTIFIER_CHARACTERS);
    expect(schema.propertyNames).toBeUndefined();
  });
});

describe('patterns of our own', () => {
  const ruled = (pattern: string) => withCharacterRule({ type: 'string', pattern });
  it('keeps an anchored ASCII-only pattern as it is', () => {
    for (const p of [
      '^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$',
      '^sha256:[a-f0-9]{64}$',
      '^[a-z]+(\\.[a-z]+)*$',
    ]) {
      expect(ruled(p), p).toEqual({ type: 'string', pattern: p });
    }
  });
  it('adds the rule beside a pattern that admits more: a prefix, a negated class, a dot', () => {
    for (const p of ['^https?://', '^[^/]+$', '^a.b$']) {
      expect(ruled(p).allOf, p).toEqual([{ pattern: IDENTIFIER_CHARACTERS }]);
    }
  });
});
