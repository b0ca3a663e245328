import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DefinitionModel } from '../../crds/definitions/model.ts';
import {
  chainText,
  chainValue,
  editDefinition,
  errorsAt,
  layoutOf,
  lineRange,
  readDefinition,
  setIn,
  settingEntry,
  settingPath,
  settingRows,
  shownText,
  textValue,
  withoutSetting,
} from './definition-form.ts';

const FILE = readFileSync(
  new URL('../../test/fixtures/definitions/workspace-top-level.yaml', import.meta.url),
  'utf8',
);
const modelOf = (text: string): DefinitionModel => {
  const r = readDefinition(text);
  if (!('model' in r)) throw new Error(r.problem.message);
  return r.model;
};

/** The lines of `after` that differ from `before`, by number (same line count). */
function changedLines(before: string, after: string): number[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

describe('the definition form', () => {
  it('reads the model of a file, or says where its YAML breaks', () => {
    const m = modelOf(FILE);
    expect(m.sections.kind).toBe('PlatformWorkspace');
    expect(m.blocks.map((b) => b.key)).toEqual(['x-team-notes']);
    const broken = readDefinition('kind: PlatformAgent\nmetadata:\n  name: [x\n');
    expect(broken).toMatchObject({ problem: { line: 4 } });
    expect(readDefinition('- a\n- b\n')).toMatchObject({ problem: { line: 1, column: 1 } });
  });

  it('changes only the edited line: comments, key order and the free-form block survive', () => {
    const m = modelOf(FILE);
    const after = editDefinition(FILE, m, ['metadata', 'name'], 'platform-crew');
    expect(changedLines(FILE, after)).toEqual([7]);
    expect(after).toContain('  name: platform-crew   # the workspace');
    expect(after).toContain('x-team-notes:\n  oncall: alice\n  rota: [mon, tue]\n');
    expect(after.split('\n')[0]).toBe(
      "# Definition file in the spec's layout: abilities and environment beside spec,",
    );
  });

  it('edits an agent of a workspace, its chain, a setting and the soul where the file keeps them', () => {
    const m = modelOf(FILE);
    const layout = layoutOf(m.sections);
    expect(layout).toMatchObject({
      agents: ['spec', 'agents'],
      abilities: ['abilities'],
      environment: ['environment'],
    });
    const model = editDefinition(FILE, m, [...layout.agents!, 1, 'model', 'id'], 'claude-opus');
    expect(changedLines(FILE, model)).toEqual([30]);
    expect(model).toContain("model: {id: 'claude-opus'}");
    const chain = editDefinition(FILE, m, [...layout.chain, 'preRequest'], chainValue('prompt-guard'));
    expect(changedLines(FILE, chain)).toEqual([12]);
    const path = settingPath(layout, 'injection', 'threshold');
    const entry = settingEntry(
      m.sections.spec && (m.sections.spec as never)['defaults']['auditorSettings']['injection']['threshold'],
      { value: '0.9' },
    );
    const setting = editDefinition(FILE, m, path, entry);
    expect(changedLines(FILE, setting)).toEqual([17]);
    expect(setting).toContain('threshold: {value: 0.9, enforced: true}');
    const soul = editDefinition(FILE, m, [...layout.abilities, 'soul', 'identity', 'role'], 'planner');
    expect(changedLines(FILE, soul)).toEqual([39]);
  });

  it('lists settings as rows and removes one (its auditor too when it was the last)', () => {
    const m = modelOf(FILE);
    const layout = layoutOf(m.sections);
    const rows = settingRows((m.sections.spec as never)['defaults']['auditorSettings']);
    expect(rows).toEqual([
      { auditor: 'injection', setting: 'threshold', value: '0.8', enforced: true },
      {
        auditor: 'injection',
        setting: 'banSubstrings',
        value: '["ignore previous", "disregard all"]',
        enforced: false,
      },
    ]);
    const one = withoutSetting(m.sections, layout, 'injection', 'threshold') as never;
    expect(Object.keys(one['spec']['defaults']['auditorSettings']['injection'])).toEqual(['banSubstrings']);
    const none = withoutSetting(one, layout, 'injection', 'banSubstrings') as never;
    expect(none['spec']['defaults']['auditorSettings']).toEqual({});
    expect(settingEntry({ value: 1 }, { enforced: false })).toEqual({ value: 1 });
    expect(settingEntry({ value: 1, enforced: true }, { enforced: false })).toEqual({
      value: 1,
      enforced: false,
    });
    expect(settingEntry(undefined, { value: '[a, b]' })).toEqual({ value: ['a', 'b'] });
    expect(settingEntry(undefined, { value: 'plain words' })).toEqual({ value: 'plain words' });
  });

  it('lays out an agent file: model, chain and settings under spec, abilities where written', () => {
    const agent = { kind: 'PlatformAgent', spec: { abilities: {} } };
    expect(layoutOf(agent)).toEqual({
      kind: 'PlatformAgent',
      chain: ['spec', 'auditorChain'],
      settings: ['spec', 'auditorSettings'],
      model: ['spec', 'model', 'id'],
      abilities: ['spec', 'abilities'],
      environment: ['environment'],
    });
  });

  it('keeps a draft while it means the stored value, else shows the stored value', () => {
    const codec = { read: chainValue, show: chainText };
    const stored = [{ auditorId: 'a' }, { auditorId: 'b' }];
    expect(shownText('a, b,', stored, codec)).toBe('a, b,');
    expect(shownText('a,', stored, codec)).toBe('a, b');
    expect(shownText(undefined, stored, codec)).toBe('a, b');
    expect(shownText('', undefined, codec)).toBe('');
  });

  it('sets and deletes by path, adds no empty key, finds errors and lines', () => {
    expect(setIn({ a: [1, 2] }, ['a', 0], undefined)).toEqual({ a: [2] });
    expect(setIn(undefined, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
    const m = modelOf(FILE);
    expect(textValue(m, ['spec', 'nothing'], '')).toBeUndefined();
    expect(textValue(m, ['metadata', 'name'], '')).toBe('');
    const errors = [{ path: 'spec.agents[1].name' }, { path: 'metadata.name' }, { path: 'spec.agentsX' }];
    expect(errorsAt(errors, ['spec', 'agents', 1])).toEqual([{ path: 'spec.agents[1].name' }]);
    expect(errorsAt(errors, ['metadata', 'name'])).toEqual([{ path: 'metadata.name' }]);
    expect(lineRange('a\nbc\nd', 2)).toEqual([2, 4]);
    expect(lineRange('a', 5)).toEqual([1, 1]);
  });
});
