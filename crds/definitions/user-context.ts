// The user-context markdown file: `## Preferences` (key-value pairs),
// `## Context` (free text) and `## Notes` (entries). Any other section, and
// text before the first heading, is a free-form block kept verbatim.
// Serialising rewrites only the lines whose content changed.

export interface UserContext {
  preferences: Record<string, string>;
  context: string;
  notes: string[];
  /** Unrecognised sections (and the preamble, heading ''), text as written. */
  blocks: { heading: string; text: string }[];
}

type Known = 'preferences' | 'context' | 'notes';
interface Section {
  heading: string;
  known?: Known;
  /** Lines of the section, each with its line ending; the heading line first (none for the preamble). */
  lines: string[];
}

const HEADING = /^##\s+(.+?)\s*$/;
const PREF = /^(\s*[-*]\s+)([^:]+?):\s?(.*?)(\r?\n)?$/;
const ITEM = /^(\s*[-*]\s+)(.*?)(\r?\n)?$/;

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function sections(text: string): Section[] {
  const out: Section[] = [{ heading: '', lines: [] }];
  for (const line of splitLines(text)) {
    const m = HEADING.exec(line.replace(/\r?\n$/, ''));
    if (m) {
      const name = m[1]!.toLowerCase();
      const known = (['preferences', 'context', 'notes'] as const).find((k) => k === name);
      out.push({ heading: m[1]!, lines: [line], ...(known ? { known } : {}) });
    } else out[out.length - 1]!.lines.push(line);
  }
  return out;
}

const strip = (line: string): string => line.replace(/\r?\n$/, '');

function preferencesOf(s: Section): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of s.lines.slice(1)) {
    const m = PREF.exec(line);
    if (m) out[m[2]!.trim()] = m[3]!;
  }
  return out;
}

/** Note entries as [first line index, last line index, text]. */
function noteEntries(s: Section): [number, number, string][] {
  const out: [number, number, string][] = [];
  s.lines.forEach((line, i) => {
    if (i === 0) return;
    const m = ITEM.exec(line);
    if (m && /^\S|^\s{0,1}[-*]/.test(line)) out.push([i, i, m[2]!]);
    else if (out.length > 0 && /^\s+\S/.test(line) && out[out.length - 1]![1] === i - 1) {
      const last = out[out.length - 1]!;
      out[out.length - 1] = [last[0], i, `${last[2]}\n${strip(line).trim()}`];
    }
  });
  return out;
}

function contextOf(s: Section): string {
  return s.lines.slice(1).join('').trim();
}

export function parseUserContext(text: string): UserContext {
  const model: UserContext = { preferences: {}, context: '', notes: [], blocks: [] };
  for (const s of sections(text)) {
    if (s.known === 'preferences') Object.assign(model.preferences, preferencesOf(s));
    else if (s.known === 'context') model.context = contextOf(s);
    else if (s.known === 'notes') model.notes.push(...noteEntries(s).map((e) => e[2]));
    else if (s.heading !== '' || s.lines.length > 0)
      model.blocks.push({ heading: s.heading, text: s.lines.join('') });
  }
  return model;
}

function editPreferences(s: Section, wanted: Record<string, string>): void {
  const have = new Set<string>();
  s.lines = s.lines.flatMap((line, i) => {
    const m = i === 0 ? null : PREF.exec(line);
    if (!m) return [line];
    const key = m[2]!.trim();
    have.add(key);
    if (!(key in wanted)) return [];
    return wanted[key] === m[3] ? [line] : [`${m[1]}${m[2]}: ${wanted[key]}${m[4] ?? '\n'}`];
  });
  const added = Object.entries(wanted)
    .filter(([k]) => !have.has(k))
    .map(([k, v]) => `- ${k}: ${v}\n`);
  const lastIndex = s.lines.reduce((acc, l, i) => (i > 0 && PREF.test(l) ? i : acc), 0);
  const at = lastIndex > 0 ? lastIndex + 1 : Math.min(2, s.lines.length);
  s.lines.splice(at, 0, ...added);
}

function editContext(s: Section, wanted: string): void {
  if (contextOf(s) === wanted) return;
  const body = s.lines.slice(1);
  const first = body.findIndex((l) => l.trim() !== '');
  const last = body.length - 1 - [...body].reverse().findIndex((l) => l.trim() !== '');
  const before = first === -1 ? ['\n'] : body.slice(0, first);
  const after = first === -1 ? ['\n'] : body.slice(last + 1);
  s.lines = [s.lines[0]!, ...before, ...(wanted ? splitLines(`${wanted}\n`) : []), ...after];
}

function editNotes(s: Section, wanted: string[]): void {
  const entries = noteEntries(s);
  const render = (note: string): string[] => splitLines(`- ${note.split('\n').join('\n  ')}\n`);
  const replaced = new Map<number, string[]>();
  entries.forEach(([from, to, text], i) => {
    if (i >= wanted.length) for (let l = from; l <= to; l++) replaced.set(l, []);
    else if (wanted[i] !== text) {
      replaced.set(from, render(wanted[i]!));
      for (let l = from + 1; l <= to; l++) replaced.set(l, []);
    }
  });
  const tail = wanted.slice(entries.length).flatMap(render);
  const insertAfter = entries.length > 0 ? entries[entries.length - 1]![1] : 0;
  s.lines = s.lines.flatMap((line, i) => [
    ...(replaced.get(i) ?? [line]),
    ...(i === insertAfter ? tail : []),
  ]);
}

function appendSection(out: string, heading: string, body: string[]): string {
  const sep = out === '' || out.endsWith('\n\n') ? '' : out.endsWith('\n') ? '\n' : '\n\n';
  return `${out}${sep}## ${heading}\n\n${body.join('')}`;
}

/** Sections the model has but the original file did not, appended at the end. */
function appendMissing(text: string, model: UserContext, seen: ReadonlySet<Known>): string {
  let out = text;
  const prefs = Object.entries(model.preferences).map(([k, v]) => `- ${k}: ${v}\n`);
  if (!seen.has('preferences') && prefs.length > 0) out = appendSection(out, 'Preferences', prefs);
  if (!seen.has('context') && model.context) out = appendSection(out, 'Context', [`${model.context}\n`]);
  if (!seen.has('notes') && model.notes.length > 0) {
    out = appendSection(
      out,
      'Notes',
      model.notes.map((n) => `- ${n.split('\n').join('\n  ')}\n`),
    );
  }
  return out;
}

const EDIT_SECTION: Record<Known, (s: Section, model: UserContext) => void> = {
  preferences: (s, model) => editPreferences(s, model.preferences),
  context: (s, model) => editContext(s, model.context),
  notes: (s, model) => editNotes(s, model.notes),
};

/**
 * A section's text in the output: a known section edited to the model the
 * first time (a repeat is kept as written), a custom block by its heading
 * (taken from `blocks`; dropped when the model no longer has it).
 */
function sectionOutput(
  s: Section,
  model: UserContext,
  seen: Set<Known>,
  blocks: UserContext['blocks'],
): string {
  if (!s.known) {
    const i = blocks.findIndex((b) => b.heading === s.heading);
    return i === -1 ? '' : blocks.splice(i, 1)[0]!.text;
  }
  if (!seen.has(s.known)) {
    seen.add(s.known);
    EDIT_SECTION[s.known](s, model);
  }
  return s.lines.join('');
}

/** The markdown of `model`, written as edits to `original`. */
export function serializeUserContext(model: UserContext, original: string): string {
  const parts = sections(original);
  const seen = new Set<Known>();
  const blocks = [...model.blocks];
  let out = '';
  for (const s of parts) out += sectionOutput(s, model, seen, blocks);
  for (const b of blocks) out += (out === '' || out.endsWith('\n') ? '' : '\n') + b.text;
  out = appendMissing(out, model, seen);
  return out;
}
