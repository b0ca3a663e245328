// Lossless YAML editing: an edit rewrites only the bytes of the nodes it
// changes, so comments, key order, quoting and unrelated lines stay as they
// were. Edits are computed by diffing the old and the new plain value.
import { deepEqual } from './deep-equal.ts';
import {
  Scalar,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseDocument,
  stringify,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';

export type Path = (string | number)[];
export type Edit = { op: 'set'; path: Path; value: unknown } | { op: 'delete'; path: Path };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The smallest set of edits that turns `before` into `after`. */
export function diffValues(before: unknown, after: unknown, path: Path = []): Edit[] {
  if (deepEqual(before, after)) return [];
  if (isObj(before) && isObj(after)) return diffObjects(before, after, path);
  if (nonEmptyArray(before) && nonEmptyArray(after)) return diffArrays(before, after, path);
  return [{ op: 'set', path, value: after }];
}

const nonEmptyArray = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

/** Deletes the keys `after` dropped, then diffs every key it has. */
function diffObjects(before: Obj, after: Obj, path: Path): Edit[] {
  const edits: Edit[] = Object.keys(before)
    .filter((k) => !(k in after))
    .map((k) => ({ op: 'delete', path: [...path, k] }));
  for (const [k, v] of Object.entries(after)) edits.push(...diffValues(before[k], v, [...path, k]));
  return edits;
}

/** Diffs the common items, appends the new ones, deletes the dropped ones from the end. */
function diffArrays(before: unknown[], after: unknown[], path: Path): Edit[] {
  const edits: Edit[] = [];
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) edits.push(...diffValues(before[i], after[i], [...path, i]));
  for (let i = common; i < after.length; i++) edits.push({ op: 'set', path: [...path, i], value: after[i] });
  for (let i = before.length - 1; i >= common; i--) edits.push({ op: 'delete', path: [...path, i] });
  return edits;
}

const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl + 1;
}
const columnOf = (text: string, at: number): number => at - lineStart(text, at);

/** A scalar in the style of the one it replaces (plain, single- or double-quoted). */
function renderScalar(value: unknown, old?: Node): string {
  if (typeof value === 'string' && isScalar(old)) {
    if (old.type === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
    if (old.type === Scalar.QUOTE_SINGLE && !value.includes('\n')) return `'${value.replace(/'/g, "''")}'`;
  }
  return stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
}

/** A value rendered as YAML lines, every line after the first indented by `indent`. */
function renderBlock(value: unknown, indent: number): string {
  const pad = ' '.repeat(indent);
  return stringify(value, { lineWidth: 0, indent: 2 })
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => (i === 0 ? line : pad + line))
    .join('\n');
}

const isCollection = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && Object.keys(v).length > 0;

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function findPair(map: unknown, key: string | number): Pair | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key) as Pair | undefined;
}

function nodeAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const seg of path) {
    if (isSeq(node) && typeof seg === 'number') node = node.items[seg];
    else node = findPair(node, seg)?.value ?? undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Replaces an existing value node in place. */
function replaceValue(text: string, node: Node, value: unknown, keyColumn: number): string {
  const [start, end] = node.range!;
  if ((isMap(node) || isSeq(node)) && node.flow) {
    return splice(text, start, end, stringify(value, { lineWidth: 0, collectionStyle: 'flow' }).trim());
  }
  if (isMap(node) || isSeq(node)) {
    const stop = text.slice(start, end).trimEnd().length + start;
    const rendered = isCollection(value) ? renderBlock(value, columnOf(text, start)) : renderScalar(value);
    return splice(text, start, stop, rendered);
  }
  if (!isCollection(value)) return splice(text, start, end, renderScalar(value, node));
  const indent = keyColumn + 2;
  return splice(text, start, end, `\n${' '.repeat(indent)}${renderBlock(value, indent)}`);
}

/** The column of the `-` before a block sequence item. */
function dashColumn(text: string, item: Node): number {
  const start = item.range![0];
  const line = text.slice(lineStart(text, start), start);
  return Math.max(line.lastIndexOf('-'), 0);
}

/** Adds a key to a block map, or an item to a block sequence, after its last entry. */
function appendEntry(text: string, parent: Node, key: string | number, value: unknown): string {
  const items = (parent as { items: unknown[] }).items;
  const last = items[items.length - 1] as Pair | Node;
  const lastNode = (isPair(last) ? (last.value ?? last.key) : last) as Node;
  const at = lineEnd(text, lastNode.range![1] - 1);
  let entry: string;
  if (isSeq(parent)) {
    const dash = dashColumn(text, items[0] as Node);
    entry = `${' '.repeat(dash)}- ${renderBlock(value, dash + 2)}`;
  } else {
    const indent = columnOf(text, ((items[0] as Pair).key as Node).range![0]);
    const body = isCollection(value)
      ? `\n${' '.repeat(indent + 2)}${renderBlock(value, indent + 2)}`
      : ` ${renderScalar(value)}`;
    entry = `${' '.repeat(indent)}${String(key)}:${body}`;
  }
  const prefix = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return splice(text, at, at, `${prefix}${entry}\n`);
}

/** The column of the key that holds the node at `path` (0 at the top level or in a sequence). */
function keyColumnOf(text: string, root: unknown, path: Path): number {
  if (path.length === 0) return 0;
  const key = findPair(nodeAt(root, path.slice(0, -1)), path[path.length - 1]!)?.key as Node | undefined;
  return key?.range ? columnOf(text, key.range[0]) : 0;
}

/** Sets the key at the end of `path` in a flow or empty collection by rewriting the collection. */
function rewriteCollection(text: string, root: unknown, path: Path, value: unknown): string {
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1]!;
  const parent = nodeAt(root, parentPath) as Node & { toJSON(): unknown };
  const plain = parent.toJSON() as Obj | unknown[];
  const next = Array.isArray(plain) ? [...plain, value] : { ...plain, [key]: value };
  return replaceValue(text, parent, next, keyColumnOf(text, root, parentPath));
}

/** The value node under `key` in a map or sequence. */
function childValue(parent: YAMLMap | YAMLSeq, key: string | number): Node | undefined {
  return (isSeq(parent) ? parent.items[key as number] : findPair(parent, key)?.value) as Node | undefined;
}

function setEdit(text: string, path: Path, value: unknown): string {
  const root = parseDocument(text).contents;
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1]!;
  const parent = parentPath.length === 0 ? root : nodeAt(root, parentPath);
  if (!isMap(parent) && !isSeq(parent)) {
    if (parentPath.length === 0) throw new Error('cannot edit a document that is not a mapping');
    return setEdit(text, parentPath, typeof key === 'number' ? [value] : { [key]: value });
  }
  const existing = childValue(parent, key);
  if (existing?.range) return replaceValue(text, existing, value, keyColumnOf(text, root, path));
  if (parent.flow || parent.items.length === 0) return rewriteCollection(text, root, path, value);
  return appendEntry(text, parent as Node, key, value);
}

/** A collection's plain value without the entry at `key`. */
function withoutEntry(parent: YAMLMap | YAMLSeq, key: string | number): Obj | unknown[] {
  const plain = parent.toJSON() as Obj | unknown[];
  return Array.isArray(plain)
    ? plain.filter((_, i) => i !== key)
    : Object.fromEntries(Object.entries(plain).filter(([k]) => k !== key));
}

/** The whole lines an entry (a pair, or a sequence item) takes up. */
function entryLines(text: string, item: Pair | Node): [number, number] {
  const startNode = (isPair(item) ? item.key : item) as Node;
  const endNode = (isPair(item) ? (item.value ?? item.key) : item) as Node;
  const start = lineStart(text, startNode.range![0]);
  return [start, lineEnd(text, Math.max(endNode.range![1] - 1, startNode.range![0]))];
}

function deleteEdit(text: string, path: Path): string {
  const doc = parseDocument(text);
  const parent = path.length === 1 ? doc.contents : nodeAt(doc.contents, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (!isMap(parent) && !isSeq(parent)) return text;
  if (parent.flow || parent.items.length === 1) {
    if (path.length === 1) return '{}\n';
    return setEdit(text, path.slice(0, -1), withoutEntry(parent, key));
  }
  const item = isSeq(parent) && typeof key === 'number' ? (parent.items[key] as Node) : findPair(parent, key);
  if (!item) return text;
  const [start, end] = entryLines(text, item);
  return splice(text, start, end, '');
}

/** Applies edits one by one, each on the text the previous one produced. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  return edits.reduce((t, e) => (e.op === 'set' ? setEdit(t, e.path, e.value) : deleteEdit(t, e.path)), text);
}

/**
 * Rewrites `text` so that it parses to `value`, touching only the lines that
 * must change. Falls back to re-serialising through the Document API (still
 * keeping comments) if a minimal edit cannot reproduce the value exactly.
 */
export function updateYamlText(text: string, value: unknown): string {
  const before = parseDocument(text).toJS() as unknown;
  const edited = applyEdits(text, diffValues(before, value));
  const check = parseDocument(edited);
  if (check.errors.length === 0 && deepEqual(check.toJS(), value)) return edited;
  const doc = parseDocument(text);
  doc.contents = doc.createNode(value) as typeof doc.contents;
  return doc.toString({ lineWidth: 0 });
}
