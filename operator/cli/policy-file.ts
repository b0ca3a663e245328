// Reading AuditorPolicy files for `platform policy`: YAML or JSON, one or
// several documents (`---`, a JSON list, or a `kind: List`), each remembered
// with its YAML nodes so that a problem found at a JSON pointer, or at an
// offset inside the `cedar` text, can be given as file:line.
import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import type { PolicyRecord } from '../../policy/types.ts';
import { usageError } from './errors.ts';

export interface Problem {
  file: string;
  line?: number;
  message: string;
}

export interface PolicyDoc {
  file: string;
  /** The document as parsed. */
  value: Record<string, unknown>;
  /** `<namespace>.<name>`, as `/v1/policies` names it. */
  id: string;
  record: PolicyRecord;
  /** The line of the node at a JSON pointer into `value` (its nearest existing parent when absent). */
  lineOf(pointer: string): number | undefined;
  /** The line of an offset into `spec.cedar`, when the text is a block scalar; its key's line otherwise. */
  cedarLine(offset: number): number | undefined;
}

export const pointerPath = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function nodeAt(root: Node | null | undefined, path: readonly string[]): Node | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (isMap(node)) node = node.get(key, true);
    else if (isSeq(node)) node = node.get(Number(key), true);
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node as Node;
}

interface Located {
  file: string;
  counter: LineCounter;
  root: Node | null | undefined;
}

function lineFinder(at: Located): (pointer: string) => number | undefined {
  return (pointer) => {
    const path = pointerPath(pointer);
    for (let n = path.length; n >= 0; n--) {
      const node = nodeAt(at.root, path.slice(0, n));
      if (node?.range) return at.counter.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

function cedarFinder(
  at: Located,
  lineOf: (p: string) => number | undefined,
): (offset: number) => number | undefined {
  return (offset) => {
    const node = nodeAt(at.root, ['spec', 'cedar']);
    const keyLine = lineOf('/spec/cedar');
    if (!isScalar(node) || !node.range || !['BLOCK_LITERAL'].includes(String(node.type))) return keyLine;
    const first = at.counter.linePos(node.range[0]).line + 1;
    const text = String(node.value);
    return first + (text.slice(0, offset).match(/\n/g)?.length ?? 0);
  };
}

function idOf(value: Record<string, unknown>, namespace: string): string {
  const meta = (value.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const ns = typeof meta.namespace === 'string' && meta.namespace ? meta.namespace : namespace;
  return `${ns}.${typeof meta.name === 'string' ? meta.name : ''}`;
}

function docOf(at: Located, value: Record<string, unknown>, namespace: string): PolicyDoc {
  const lineOf = lineFinder(at);
  const id = idOf(value, namespace);
  const spec = (value.spec ?? {}) as PolicyRecord['spec'];
  return {
    file: at.file,
    value,
    id,
    record: { id, version: String(spec.version ?? '0'), spec },
    lineOf,
    cedarLine: cedarFinder(at, lineOf),
  };
}

/** The documents a YAML document holds: itself, the items of a JSON list, or those of a `kind: List`. */
function itemsOf(doc: Document, file: string, counter: LineCounter): { at: Located; value: unknown }[] {
  const value: unknown = doc.toJS();
  const list = Array.isArray(value)
    ? { items: value, node: doc.contents }
    : (value as { kind?: unknown })?.kind === 'List'
      ? {
          items: ((value as { items?: unknown[] }).items ?? []) as unknown[],
          node: nodeAt(doc.contents, ['items']),
        }
      : undefined;
  if (!list) return [{ at: { file, counter, root: doc.contents }, value }];
  return list.items.map((item, i) => ({
    at: { file, counter, root: nodeAt(list.node, [String(i)]) },
    value: item,
  }));
}

export interface LoadedFile {
  docs: PolicyDoc[];
  problems: Problem[];
}

function yamlProblems(doc: Document, file: string): Problem[] {
  return doc.errors.map((e) => ({
    file,
    line: e.linePos?.[0]?.line,
    message: `invalid YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
  }));
}

/** The document, or the problem of a document that is not a mapping; undefined for an empty one. */
function mappingOf(at: Located, value: unknown, namespace: string): PolicyDoc | Problem | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && !Array.isArray(value))
    return docOf(at, value as Record<string, unknown>, namespace);
  const line = at.root?.range ? at.counter.linePos(at.root.range[0]).line : undefined;
  return { file: at.file, line, message: 'a document must be a mapping (an AuditorPolicy)' };
}

/** Parses `text`; YAML errors are problems with their line, non-object documents too. */
export function parsePolicyText(text: string, file: string, namespace: string): LoadedFile {
  const counter = new LineCounter();
  const out: LoadedFile = { docs: [], problems: [] };
  for (const doc of parseAllDocuments(text, { lineCounter: counter })) {
    const errors = yamlProblems(doc, file);
    out.problems.push(...errors);
    if (errors.length > 0) continue;
    for (const { at, value } of itemsOf(doc, file, counter)) {
      const found = mappingOf(at, value, namespace);
      if (found && 'record' in found) out.docs.push(found);
      else if (found) out.problems.push(found);
    }
  }
  return out;
}

/** Reads a policy file (`-`: standard input); a missing file is a usage error. */
export function readPolicyFile(path: string, namespace: string): LoadedFile {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw usageError(
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      'check the -f path',
    );
  }
  return parsePolicyText(text, path === '-' ? '<stdin>' : path, namespace);
}

export const problemLine = (p: Problem): string => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
