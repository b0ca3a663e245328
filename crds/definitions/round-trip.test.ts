import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, parseDocument } from 'yaml';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { parseDefinitionModel, serializeDefinitionModel } from './model.ts';
import { type Path, updateYamlText } from './yaml-edit.ts';

const DIRS = ['test/fixtures/definitions', 'config/samples'];
const FIXTURES = DIRS.flatMap((d) =>
  readdirSync(join(REPO_ROOT, d))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ name: `${d}/${f}`, text: readFileSync(join(REPO_ROOT, d, f), 'utf8') })),
).filter((f) => parseAllDocuments(f.text).length === 1);

type Obj = Record<string, unknown>;
function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return value === null ? [] : [path];
}
function maps(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => maps(v, [...path, i]));
  if (!value || typeof value !== 'object') return [];
  return [path, ...Object.entries(value).flatMap(([k, v]) => maps(v, [...path, k]))];
}
function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root) as Obj;
  let node = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}
/** How many lines of `small` are not found, in order, in `big` (0: lines were only added). */
function droppedLines(small: string[], big: string[]): number {
  let i = 0;
  let dropped = 0;
  for (const line of small) {
    const at = big.indexOf(line, i);
    if (at === -1) dropped++;
    else i = at + 1;
  }
  return dropped;
}
const isFlow = (text: string, path: Path): boolean =>
  path.length > 0 && (parseDocument(text).getIn(path, true) as { flow?: boolean } | undefined)?.flow === true;
const changedLines = (a: string, b: string): number[] => {
  const x = a.split('\n');
  const y = b.split('\n');
  return x.length !== y.length ? [-1] : x.flatMap((l, i) => (l === y[i] ? [] : [i]));
};

const scalar = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9 -]{0,15}[a-z0-9]$/),
  fc.integer({ min: 0, max: 100000 }),
  fc.boolean(),
  fc.constantFrom('yes', '0.5', 'a: b', "it's", '#x', '*.example.com'),
);
const fixtureArb = fc.constantFrom(...FIXTURES);

describe('lossless YAML round trip', () => {
  it.each(FIXTURES.map((f) => [f.name, f.text]))('%s: parse then serialize is byte-identical', (_, text) => {
    expect(serializeDefinitionModel(parseDefinitionModel(text), text)).toBe(text);
    expect(updateYamlText(text, parse(text))).toBe(text);
  });

  it('a scalar edit changes only its own line', () => {
    fc.assert(
      fc.property(fixtureArb, fc.nat(), scalar, (f, pick, value) => {
        const before = parse(f.text) as unknown;
        const paths = leaves(before);
        const path = paths[pick % paths.length]!;
        const wanted = setAt(before, path, value);
        const out = updateYamlText(f.text, wanted);
        expect(parse(out)).toEqual(wanted);
        expect(changedLines(f.text, out).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150 },
    );
  });

  it('adding a key only adds lines (or rewrites its flow line); removing it restores the file', () => {
    fc.assert(
      fc.property(fixtureArb, fc.nat(), scalar, (f, pick, value) => {
        const before = parse(f.text) as unknown;
        const candidates = maps(before).filter(
          (p) => !Array.isArray(p.reduce<unknown>((n, s) => (n as Obj)[s], before)),
        );
        const path = candidates[pick % candidates.length]!;
        const added = updateYamlText(f.text, setAt(before, [...path, 'zzAdded'], value));
        expect(parse(added)).toEqual(setAt(before, [...path, 'zzAdded'], value));
        // A block map gains lines only; a flow map (`{id: x}`) rewrites its own one line.
        const flow = isFlow(f.text, path);
        expect(droppedLines(f.text.split('\n'), added.split('\n'))).toBe(flow ? 1 : 0);
        const removed = updateYamlText(added, before);
        expect(parse(removed)).toEqual(before);
        if (!flow) expect(removed).toBe(f.text);
      }),
      { numRuns: 100 },
    );
  });

  it('unknown sections survive edits as free-form blocks', () => {
    const f = FIXTURES.find((x) => x.name.endsWith('workspace-top-level.yaml'))!;
    const model = parseDefinitionModel(f.text);
    expect(model.blocks.map((b) => b.key)).toEqual(['x-team-notes']);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), (name) => {
        const edited = structuredClone(model);
        (edited.sections.metadata as Obj).name = name;
        const out = serializeDefinitionModel(edited, f.text);
        expect(parseDefinitionModel(out).blocks).toEqual(model.blocks);
        expect(changedLines(f.text, out)).toEqual(name === 'platform-team' ? [] : [6]);
      }),
    );
  });

  it('edits a free-form block in place and keeps the known sections', () => {
    const f = FIXTURES.find((x) => x.name.endsWith('workspace-top-level.yaml'))!;
    const model = parseDefinitionModel(f.text);
    model.blocks[0]!.text = model.blocks[0]!.text.replace('oncall: alice', 'oncall: bob');
    const out = serializeDefinitionModel(model, f.text);
    expect(changedLines(f.text, out)).toEqual([f.text.split('\n').indexOf('  oncall: alice')]);
    expect(parseDefinitionModel(out).sections).toEqual(model.sections);
  });
});
