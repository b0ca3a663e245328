import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { parseUserContext, serializeUserContext } from './user-context.ts';

const TEXT = readFileSync(join(REPO_ROOT, 'test/fixtures/definitions/user-context.md'), 'utf8');
const lines = (s: string): string[] => s.split('\n');
const diffCount = (a: string, b: string): number =>
  lines(a).length !== lines(b).length ? -1 : lines(a).filter((l, i) => l !== lines(b)[i]).length;

describe('user-context markdown', () => {
  it('reads preferences as pairs, context as text, notes as entries, and keeps other sections', () => {
    const m = parseUserContext(TEXT);
    expect(m.preferences).toEqual({ language: 'English', timezone: 'Europe/Berlin', tone: 'concise' });
    expect(m.context).toBe('I lead the platform team.\nWe ship on Thursdays.');
    expect(m.notes).toEqual([
      '2026-01-10: prefers PR summaries',
      'Allergic to long meetings,\nkeep standups short.',
    ]);
    expect(m.blocks.map((b) => b.heading)).toEqual(['', 'Links']);
  });

  it('serialises an unedited model byte for byte', () => {
    expect(serializeUserContext(parseUserContext(TEXT), TEXT)).toBe(TEXT);
  });

  it('changes only the line of an edited preference', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('language', 'timezone', 'tone'),
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9 /]{0,20}[A-Za-z0-9]$/),
        (key, value) => {
          const m = parseUserContext(TEXT);
          m.preferences[key] = value;
          const out = serializeUserContext(m, TEXT);
          expect(parseUserContext(out)).toEqual(m);
          expect(diffCount(TEXT, out)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('adds and removes notes and preferences without touching other sections', () => {
    const m = parseUserContext(TEXT);
    m.notes.push('new entry');
    m.preferences.editor = 'vim';
    delete m.preferences.tone;
    const out = serializeUserContext(m, TEXT);
    expect(parseUserContext(out)).toEqual(m);
    expect(out).toContain('- timezone: Europe/Berlin\n- editor: vim\n');
    expect(out).toContain('  keep standups short.\n- new entry\n');
    expect(out.endsWith('## Links\n\n[wiki](https://wiki.example)\n')).toBe(true);
  });

  it('rewrites only the context body when the context changes', () => {
    const m = parseUserContext(TEXT);
    m.context = 'I moved to the data team.';
    const out = serializeUserContext(m, TEXT);
    expect(parseUserContext(out).context).toBe(m.context);
    expect(
      out.replace('I moved to the data team.\n', 'I lead the platform team.\nWe ship on Thursdays.\n'),
    ).toBe(TEXT);
  });

  it('creates missing sections for a new file', () => {
    const out = serializeUserContext(
      { preferences: { a: '1' }, context: 'ctx', notes: ['n'], blocks: [] },
      '',
    );
    expect(out).toBe('## Preferences\n\n- a: 1\n\n## Context\n\nctx\n\n## Notes\n\n- n\n');
    expect(parseUserContext(out)).toEqual({
      preferences: { a: '1' },
      context: 'ctx',
      notes: ['n'],
      blocks: [],
    });
  });
});
