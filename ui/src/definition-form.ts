// The definition editor's form ↔ model mapping (issue 22 step 8). The YAML
// text is the one source of truth: the form is read from its model
// (crds/definitions/model.ts) and every form edit is a change of that model,
// written back as a minimal edit of the text, so an unedited file stays byte
// for byte and an edit touches only its own lines. Pure.
import { LineCounter, parse, parseDocument } from 'yaml';
import { pathToString } from '../../crds/definitions/errors.ts';
import {
  parseDefinitionModel,
  serializeDefinitionModel,
  type DefinitionModel,
} from '../../crds/definitions/model.ts';

export type Path = (string | number)[];
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface YamlProblem {
  line: number;
  column: number;
  message: string;
}

/** The file's model, or where its YAML does not parse (the first problem). */
export function readDefinition(text: string): { model: DefinitionModel } | { problem: YamlProblem } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const err = doc.errors[0];
  if (err) {
    const pos = lines.linePos(err.pos[0]);
    return { problem: { line: pos.line, column: pos.col, message: err.message.split('\n')[0]! } };
  }
  if (doc.contents !== null && !isObj(doc.toJS())) {
    return { problem: { line: 1, column: 1, message: 'a definition file is a YAML mapping (key: value)' } };
  }
  return { model: parseDefinitionModel(text) };
}

export function getIn(root: unknown, path: Path): unknown {
  let v = root;
  for (const seg of path) v = isObj(v) || Array.isArray(v) ? (v as Obj)[seg as string] : undefined;
  return v;
}

/** `root` with the value at `path` replaced (undefined deletes it); containers made as needed. */
export function setIn(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Path];
  const child = setIn(getIn(root, [head]), rest, value);
  if (Array.isArray(root) && typeof head === 'number') {
    const copy = [...root];
    if (child === undefined) copy.splice(head, 1);
    else copy[head] = child;
    return copy;
  }
  const copy: Obj = isObj(root) ? { ...root } : {};
  if (child === undefined) delete copy[head];
  else copy[head] = child;
  return copy;
}

/** The text after setting `path` of the model's sections to `value` (undefined deletes). */
export function editDefinition(text: string, model: DefinitionModel, path: Path, value: unknown): string {
  const sections = setIn(model.sections, path, value) as Obj;
  return serializeDefinitionModel({ ...model, sections }, text);
}

/** A text field's new value: '' on a key the file does not have adds nothing. */
export function textValue(model: DefinitionModel, path: Path, text: string): string | undefined {
  return text === '' && getIn(model.sections, path) === undefined ? undefined : text;
}

/** Where a kind keeps its chain and settings, and where the file keeps abilities and environment. */
export interface Layout {
  kind: string;
  chain: Path;
  settings: Path;
  model?: Path;
  agents?: Path;
  abilities: Path;
  environment: Path;
}

/** `abilities`/`environment` beside `spec` (the spec's layout), or under it when the file has them there. */
function sectionPath(sections: Obj, name: 'abilities' | 'environment'): Path {
  if (name in sections) return [name];
  return isObj(sections.spec) && name in sections.spec ? ['spec', name] : [name];
}

export function layoutOf(sections: Obj): Layout {
  const kind = typeof sections.kind === 'string' ? sections.kind : '';
  const workspace = kind === 'PlatformWorkspace';
  return {
    kind,
    chain: workspace ? ['spec', 'defaults', 'auditorChain'] : ['spec', 'auditorChain'],
    settings: workspace ? ['spec', 'defaults', 'auditorSettings'] : ['spec', 'auditorSettings'],
    ...(workspace ? { agents: ['spec', 'agents'] } : { model: ['spec', 'model', 'id'] }),
    abilities: sectionPath(sections, 'abilities'),
    environment: sectionPath(sections, 'environment'),
  };
}

/** A chain list ([{auditorId}]) as the comma-separated ids the form shows. */
export function chainText(list: unknown): string {
  if (!Array.isArray(list)) return '';
  return list.map((e) => (isObj(e) ? String(e.auditorId ?? '') : String(e))).join(', ');
}

export function chainValue(text: string): { auditorId: string }[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((auditorId) => ({ auditorId }));
}

/** Guidelines: one per line. */
export const linesText = (list: unknown): string => (Array.isArray(list) ? list.map(String).join('\n') : '');
export const linesValue = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/**
 * What a field whose text is a codec of its value shows: the draft being
 * typed while it still means the stored value ("a, b," while typing), else
 * the stored value's text (it changed on the YAML side).
 */
export function shownText<T>(
  draft: string | undefined,
  stored: T,
  codec: { read: (t: string) => unknown; show: (v: T) => string },
): string {
  const same =
    draft !== undefined && JSON.stringify(codec.read(draft)) === JSON.stringify(stored ?? codec.read(''));
  return same ? draft : codec.show(stored);
}

/** One auditor setting as a form row. */
export interface SettingRow {
  auditor: string;
  setting: string;
  /** The value as YAML (flow style): `0.8`, `[a, b]`, `text`. */
  value: string;
  enforced: boolean;
}

const flow = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v).replace(/","/g, '", "'));

export function settingRows(settings: unknown): SettingRow[] {
  if (!isObj(settings)) return [];
  return Object.entries(settings).flatMap(([auditor, entries]) =>
    isObj(entries)
      ? Object.entries(entries).map(([setting, entry]) => ({
          auditor,
          setting,
          value: flow(isObj(entry) ? entry.value : entry),
          enforced: isObj(entry) && entry.enforced === true,
        }))
      : [],
  );
}

/** A setting's typed value: YAML when it reads as a number, boolean or list; otherwise the text. */
export function settingValue(text: string): unknown {
  try {
    const v: unknown = parse(text);
    return v === null || v === undefined ? text : v;
  } catch {
    return text;
  }
}

/** The setting entry after an edit of its value or of its enforced box. */
export function settingEntry(entry: unknown, change: { value?: string; enforced?: boolean }): Obj {
  const base: Obj = isObj(entry) ? { ...entry } : { value: entry };
  if (change.value !== undefined) base.value = settingValue(change.value);
  if (change.enforced !== undefined) {
    if (change.enforced) base.enforced = true;
    else if ('enforced' in base) base.enforced = false;
  }
  return base;
}

/** The path of a setting under the layout's settings map. */
export const settingPath = (layout: Layout, auditor: string, setting: string): Path => [
  ...layout.settings,
  auditor,
  setting,
];

/** The sections without one setting (and without its auditor when that was its last). */
export function withoutSetting(sections: Obj, layout: Layout, auditor: string, setting: string): unknown {
  const rest = setIn(sections, settingPath(layout, auditor, setting), undefined);
  const left = getIn(rest, [...layout.settings, auditor]);
  return isObj(left) && Object.keys(left).length === 0
    ? setIn(rest, [...layout.settings, auditor], undefined)
    : rest;
}

/** The errors whose field path is `path` or inside it, for the form field that shows them. */
export function errorsAt<E extends { path: string }>(errors: readonly E[], path: Path): E[] {
  const at = pathToString(path);
  return errors.filter((e) => e.path === at || e.path.startsWith(`${at}.`) || e.path.startsWith(`${at}[`));
}

/** The character offsets of line `line` (1-based) in `text`, to select it. */
export function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return [text.length, text.length];
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end === -1 ? text.length : end];
}
