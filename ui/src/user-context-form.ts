// The user-context editor's form edits (preferences, context, notes), as
// changes of the model crds/definitions/user-context.ts reads and writes
// back with minimal edits of the markdown. Pure.
import type { UserContext } from '../../crds/definitions/user-context.ts';

/** Preferences with one key renamed, in place (the order kept). */
export function renamePreference(
  prefs: Record<string, string>,
  from: string,
  to: string,
): Record<string, string> {
  if (to === from || to.trim() === '' || to in prefs) return prefs;
  return Object.fromEntries(Object.entries(prefs).map(([k, v]) => [k === from ? to : k, v]));
}

export function setPreference(
  prefs: Record<string, string>,
  key: string,
  value: string,
): Record<string, string> {
  return { ...prefs, [key]: value };
}

export function withoutPreference(prefs: Record<string, string>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(prefs).filter(([k]) => k !== key));
}

/** Why a new preference cannot be added, or undefined. */
export function preferenceProblem(prefs: Record<string, string>, key: string): string | undefined {
  const k = key.trim();
  if (k === '') return 'Name the preference.';
  if (k.includes(':')) return 'A preference name cannot hold a colon.';
  if (k in prefs) return `There is already a preference named ${k}.`;
  return undefined;
}

/** The notes with note `i` replaced (undefined removes it) or, at the end, one added. */
export function withNote(notes: readonly string[], i: number, text: string | undefined): string[] {
  if (text === undefined) return notes.filter((_, j) => j !== i);
  const out = [...notes];
  out[i] = text;
  return out;
}

export const withModel = (model: UserContext, change: Partial<UserContext>): UserContext => ({
  ...model,
  ...change,
});
