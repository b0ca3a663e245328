// The structured view of a definition file for the editor: the known sections
// as plain data and every unrecognised top-level section as a free-form block
// of its original text. Serialising a model back edits the original text
// minimally, so an unedited model returns the file byte for byte.
import { isMap, isPair, isScalar, parseDocument, type Node } from 'yaml';
import { KNOWN_SECTIONS } from './convert.ts';
import { updateYamlText } from './yaml-edit.ts';

export interface FreeFormBlock {
  /** The top-level key. */
  key: string;
  /** The section's text exactly as written, from its key to the end of its value. */
  text: string;
}

export interface DefinitionModel {
  /** apiVersion, kind, metadata, spec, abilities, environment, as written (no normalisation). */
  sections: Record<string, unknown>;
  blocks: FreeFormBlock[];
}

interface BlockRange extends FreeFormBlock {
  start: number;
  end: number;
}

function blockRanges(text: string): BlockRange[] {
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) return [];
  const pairs = doc.contents.items.filter((p) => isPair(p) && isScalar(p.key));
  return pairs.flatMap((pair, i) => {
    const key = String((pair.key as { value: unknown }).value);
    if ((KNOWN_SECTIONS as readonly string[]).includes(key)) return [];
    const start = text.lastIndexOf('\n', (pair.key as Node).range![0] - 1) + 1;
    const next = pairs[i + 1];
    const end = next ? text.lastIndexOf('\n', (next.key as Node).range![0] - 1) + 1 : text.length;
    return [{ key, text: text.slice(start, end), start, end }];
  });
}

export function parseDefinitionModel(text: string): DefinitionModel {
  const value = (parseDocument(text).toJS() ?? {}) as Record<string, unknown>;
  const sections = Object.fromEntries(
    Object.entries(value).filter(([k]) => (KNOWN_SECTIONS as readonly string[]).includes(k)),
  );
  return { sections, blocks: blockRanges(text).map(({ key, text: t }) => ({ key, text: t })) };
}

function withBlocks(text: string, blocks: readonly FreeFormBlock[]): string {
  let out = text;
  const ranges = blockRanges(text);
  for (const r of [...ranges].reverse()) {
    const wanted = blocks.find((b) => b.key === r.key);
    if (!wanted) out = out.slice(0, r.start) + out.slice(r.end);
    else if (wanted.text !== r.text) out = out.slice(0, r.start) + wanted.text + out.slice(r.end);
  }
  for (const b of blocks.filter((b) => !ranges.some((r) => r.key === b.key))) {
    out += (out.endsWith('\n') || out === '' ? '' : '\n') + b.text;
  }
  return out;
}

/** The text of `model`, written as edits to `original`: unchanged parts keep their bytes. */
export function serializeDefinitionModel(model: DefinitionModel, original: string): string {
  const current = parseDefinitionModel(original);
  let text = withBlocks(original, model.blocks);
  const full = (parseDocument(text).toJS() ?? {}) as Record<string, unknown>;
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(full)) {
    if (!(KNOWN_SECTIONS as readonly string[]).includes(k)) next[k] = v;
    else if (k in model.sections) next[k] = model.sections[k];
  }
  for (const [k, v] of Object.entries(model.sections)) if (!(k in next)) next[k] = v;
  if (JSON.stringify(current.sections) !== JSON.stringify(model.sections) || text !== original) {
    text = updateYamlText(text, next);
  }
  return text;
}
