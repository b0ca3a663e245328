// The input hygiene (base/hygiene.ts) lets line breaks through only in the
// fields it knows as free text: every free-text field of the CRD schemas must be one.
import { describe, expect, it } from 'vitest';
import { FREE_TEXT_FIELDS } from '../base/hygiene.ts';
import { ALL_KINDS } from './index.ts';
import { FREE_TEXT_PATTERN } from './schema/parts.ts';

describe('FREE_TEXT_FIELDS', () => {
  it('covers every free-text (text(), FREE_TEXT_PATTERN) property of the CRD schemas', () => {
    const names = new Set<string>();
    const visit = (schema: unknown, name?: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const s = schema as Record<string, unknown>;
      if (name && s.pattern === FREE_TEXT_PATTERN) names.add(name);
      if (s.type === 'array' && name) visit(s.items, name);
      for (const [k, v] of Object.entries((s.properties as Record<string, unknown>) ?? {})) visit(v, k);
      if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    };
    for (const kind of ALL_KINDS) {
      visit(kind.spec);
      visit(kind.status);
    }
    expect(names.size).toBeGreaterThan(5);
    for (const n of names) expect(FREE_TEXT_FIELDS.has(n), n).toBe(true);
  });
});
