// A definition file as parsed YAML documents that remember where every node
// came from, so an error at a field path can name its line and column.
import {
  LineCounter,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type Node,
} from 'yaml';
import { describeValue, pathToString, type DefinitionError } from './errors.ts';

export type Path = (string | number)[];

export interface SourceDocument {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** The document as plain data (undefined when it did not parse). */
  value: unknown;
}

export interface Located {
  line: number;
  column: number;
}

export function parseSource(
  text: string,
  file: string,
): { docs: SourceDocument[]; errors: DefinitionError[] } {
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(parsed) ? parsed : [];
  const errors: DefinitionError[] = [];
  const docs: SourceDocument[] = [];
  if (!Array.isArray(parsed)) {
    errors.push({ file, line: 1, column: 1, path: '', message: 'not a YAML stream' });
  }
  for (const doc of list) {
    for (const err of doc.errors) {
      const pos = lines.linePos(err.pos[0]);
      errors.push({
        file,
        line: pos.line,
        column: pos.col,
        path: '',
        message: `malformed YAML: ${err.message.split('\n')[0]}`,
      });
    }
    if (doc.errors.length === 0) docs.push({ file, doc, lines, value: doc.toJS({ maxAliasCount: 100 }) });
  }
  return { docs, errors };
}

function child(node: unknown, key: string | number): { key?: Node; value?: Node } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
    return pair ? { key: pair.key as Node, value: (pair.value ?? undefined) as Node | undefined } : undefined;
  }
  if (isSeq(node) && typeof key === 'number') {
    const item = node.items[key];
    return item ? { value: item as Node } : undefined;
  }
  return undefined;
}

/** Where one path step points: its key when preferred, else its value, else its key (an empty value). */
function stepNode(step: { key?: Node; value?: Node }, preferKey: boolean): Node | undefined {
  return (preferKey && step.key) || step.value || step.key;
}

const startOf = (node: Node | null | undefined, fallback: number): number => node?.range?.[0] ?? fallback;

/**
 * The position of `path` in the document: the value's start when it exists,
 * the key's when the value is empty, else the deepest existing ancestor's.
 * `atKey` prefers the key (for "unknown field" and "not allowed here" errors).
 */
export function locate(src: SourceDocument, path: readonly (string | number)[], atKey = false): Located {
  let node: unknown = src.doc.contents;
  let offset = startOf(src.doc.contents as Node | null, 0);
  for (const [i, key] of path.entries()) {
    const next = child(node, key);
    if (!next) break;
    offset = startOf(stepNode(next, atKey && i === path.length - 1), offset);
    node = next.value;
  }
  const pos = src.lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

export function errorAt(
  src: SourceDocument,
  path: Path,
  message: string,
  detail: { expected?: string; found?: unknown; atKey?: boolean } = {},
): DefinitionError {
  const at = locate(src, path, detail.atKey);
  const e: DefinitionError = {
    file: src.file,
    line: at.line,
    column: at.column,
    path: pathToString(path),
    message,
  };
  if (detail.expected !== undefined) e.expected = detail.expected;
  if ('found' in detail) e.found = describeValue(detail.found);
  return e;
}
