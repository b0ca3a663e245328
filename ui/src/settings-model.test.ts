import { describe, expect, it } from 'vitest';
import {
  addTag,
  besideField,
  camelOf,
  controlOf,
  draftOf,
  fieldsOf,
  labelOf,
  showValue,
  valueOf,
  type AuditorSchema,
  type SettingDef,
  type SettingView,
} from './settings-model.ts';

const def = (over: Partial<SettingDef>): SettingDef => ({
  key: 'k',
  label: 'K',
  type: 'string',
  default: '',
  ...over,
});

const schema: AuditorSchema = {
  auditor_id: 'toxicity',
  builtin: true,
  claims: [
    {
      name: 'a',
      description: '',
      settings: [
        def({
          key: 'threshold',
          label: 'Threshold',
          type: 'number',
          default: 0.7,
          min: 0,
          max: 1,
          control: 'slider',
        }),
        def({ key: 'block_on_detection', label: 'Block', type: 'boolean', default: true }),
      ],
    },
    {
      name: 'b',
      description: '',
      settings: [def({ key: 'threshold', label: 'Again', type: 'number', default: 0 })],
    },
  ],
};

const view = (over: Partial<SettingView>): SettingView => ({
  auditor_id: 'toxicity',
  setting: 'threshold',
  value: 0.5,
  source: 'org',
  badge: 'INHERITED (from: org)',
  badge_kind: 'INHERITED',
  locked: false,
  editable: true,
  ...over,
});

describe('settings fields', () => {
  it('derive the control from the type', () => {
    expect(controlOf(def({ type: 'number', control: 'slider', min: 0, max: 1 }))).toBe('slider');
    expect(controlOf(def({ type: 'number', control: 'slider' }))).toBe('number');
    expect(controlOf(def({ type: 'number' }))).toBe('number');
    expect(controlOf(def({ type: 'boolean' }))).toBe('toggle');
    expect(controlOf(def({ type: 'string' }))).toBe('text');
    expect(controlOf(def({ type: 'string', options: ['a', 'b'] }))).toBe('select');
    expect(controlOf(def({ type: 'string[]' }))).toBe('tags');
  });

  it('join schema and view: the default when no tier sets it, else the tier with its badge', () => {
    const fields = fieldsOf(
      schema,
      [
        view({
          setting: 'blockOnDetection',
          value: false,
          source: 'workspace',
          badge: 'DIRECT',
          badge_kind: 'DIRECT',
        }),
      ],
      'workspace',
    );
    expect(fields.map((f) => f.def.label)).toEqual(['Threshold', 'Block']);
    expect(fields[0]).toMatchObject({
      value: 0.7,
      from: 'default',
      badge: 'DEFAULT',
      setHere: false,
      editable: true,
    });
    expect(fields[1]).toMatchObject({ value: false, from: 'workspace', badge: 'DIRECT', setHere: true });
  });

  it('an inherited or locked value is not set here; a lock is not editable', () => {
    const [inherited] = fieldsOf(schema, [view({})], 'agent');
    expect(inherited).toMatchObject({ from: 'org', setHere: false, editable: true });
    const [locked] = fieldsOf(
      schema,
      [view({ badge_kind: 'LOCKED', badge: 'LOCKED (Set by Org Admin)', editable: false })],
      'org',
    );
    expect(locked).toMatchObject({ setHere: false, editable: false });
  });

  it('turn drafts back into values; a number that is not one is a problem', () => {
    const n = def({ type: 'number', label: 'Window' });
    expect(valueOf(n, draftOf(n, 4096))).toEqual({ value: 4096 });
    expect(valueOf(n, ' 12.5 ')).toEqual({ value: 12.5 });
    expect(valueOf(n, 'lots')).toEqual({ problem: 'Window: enter a number.' });
    expect(valueOf(n, '')).toEqual({ problem: 'Window: enter a number.' });
    const b = def({ type: 'boolean' });
    expect(valueOf(b, draftOf(b, true))).toEqual({ value: true });
    const t = def({ type: 'string[]' });
    expect(valueOf(t, draftOf(t, ['a']))).toEqual({ value: ['a'] });
    expect(draftOf(t, 'x')).toEqual([]);
  });

  it('tags, names and values in words', () => {
    expect(addTag(['a'], ' b ')).toEqual(['a', 'b']);
    expect(addTag(['a'], 'a')).toEqual(['a']);
    expect(addTag(['a'], '  ')).toEqual(['a']);
    expect(camelOf('max_token_limit')).toBe('maxTokenLimit');
    expect(labelOf({ key: 'max_token_limit', label: 'max token limit' })).toBe('Max token limit');
    expect(labelOf({ key: 'max_token_limit', label: '' })).toBe('Max token limit');
    expect(showValue(['x', 'y'])).toBe('x, y');
    expect(showValue([])).toBe('(none)');
    expect(showValue(false)).toBe('off');
    expect(showValue(0.5)).toBe('0.5');
  });

  it('drop the field name from a reason shown beside that field', () => {
    expect(
      besideField(
        'model-context.default_context_window: must be <= 2000000; got 5000000',
        'model-context',
        'default_context_window',
      ),
    ).toBe('must be <= 2000000; got 5000000');
    expect(besideField('injection.maxTokenLimit: must be >= 1; got 0', 'injection', 'max_token_limit')).toBe(
      'must be >= 1; got 0',
    );
    expect(besideField('injection.threshold is LOCKED (Set by Org Admin)', 'injection', 'threshold')).toBe(
      'injection.threshold is LOCKED (Set by Org Admin)',
    );
  });
});
