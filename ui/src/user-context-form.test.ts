import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUserContext, serializeUserContext } from '../../crds/definitions/user-context.ts';
import {
  preferenceProblem,
  renamePreference,
  setPreference,
  withModel,
  withNote,
  withoutPreference,
} from './user-context-form.ts';

const FILE = readFileSync(
  new URL('../../test/fixtures/definitions/user-context.md', import.meta.url),
  'utf8',
);

describe('the user-context form', () => {
  it('edits a preference in place and keeps every other line', () => {
    const m = parseUserContext(FILE);
    const out = serializeUserContext(
      withModel(m, { preferences: setPreference(m.preferences, 'tone', 'warm') }),
      FILE,
    );
    expect(out).toBe(FILE.replace('- tone: concise', '- tone: warm'));
  });

  it('renames a preference keeping the order, and refuses a clash or an empty name', () => {
    const prefs = { a: '1', b: '2', c: '3' };
    expect(Object.keys(renamePreference(prefs, 'b', 'x'))).toEqual(['a', 'x', 'c']);
    expect(renamePreference(prefs, 'b', 'a')).toBe(prefs);
    expect(renamePreference(prefs, 'b', ' ')).toBe(prefs);
    expect(withoutPreference(prefs, 'a')).toEqual({ b: '2', c: '3' });
    expect(preferenceProblem(prefs, 'a')).toMatch(/already/);
    expect(preferenceProblem(prefs, 'x:y')).toMatch(/colon/);
    expect(preferenceProblem(prefs, '')).toMatch(/Name/);
    expect(preferenceProblem(prefs, 'd')).toBeUndefined();
  });

  it('adds, changes and removes notes; the free-form sections survive', () => {
    const m = parseUserContext(FILE);
    const added = serializeUserContext(
      withModel(m, { notes: withNote(m.notes, m.notes.length, 'New note') }),
      FILE,
    );
    expect(added).toContain('  keep standups short.\n- New note\n');
    expect(added).toContain('## Links\n\n[wiki](https://wiki.example)');
    expect(added).toContain('Written by hand; the editor keeps this paragraph.');
    const removed = withNote(m.notes, 0, undefined);
    expect(removed).toEqual([m.notes[1]]);
    expect(withNote(['a', 'b'], 1, 'c')).toEqual(['a', 'c']);
  });
});
