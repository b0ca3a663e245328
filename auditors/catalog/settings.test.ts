import { describe, expect, it } from 'vitest';
import { buildSettingsTable, resolveConfiguration } from '../sdk/settings.ts';
import { BUILTIN_AUDITORS } from '../registry.ts';
import { auditorSettingsEnv, auditorSettingsProblems, BUILTIN_SETTING_TYPES } from './settings.ts';

describe('auditor settings as sidecar environment', () => {
  it('names each variable <AUDITOR>_<KEY> and writes lists so the auditor reads them back', () => {
    expect(
      auditorSettingsEnv('injection', { threshold: 0.7, banSubstrings: ['ignore previous', 'a,b'] }),
    ).toEqual([
      { name: 'INJECTION_BAN_SUBSTRINGS', value: '["ignore previous","a,b"]' },
      { name: 'INJECTION_THRESHOLD', value: '0.7' },
    ]);
    expect(auditorSettingsEnv('model-context', { nearLimitRatio: 0.8, requireKnownModel: null })).toEqual([
      { name: 'MODEL_CONTEXT_NEAR_LIMIT_RATIO', value: '0.8' },
    ]);
  });

  it('accepts what the built-in auditors declare and refuses unknown keys, wrong types and odd shapes', () => {
    expect(
      auditorSettingsProblems({
        injection: { threshold: 0.7, banSubstrings: ['x'] },
        toxicity: { threshold: 0.6, replacementMessage: 'no' },
        'llm-judge': { endpoint: 'http://judge:8000/v1' },
        'acme-pii': { mode: 'strict', terms: ['a'] },
      }),
    ).toEqual([]);
    expect(
      auditorSettingsProblems({
        injection: { threshold: 'high', colour: 1 },
        toxicity: { threshold: 0.5, 'not a key': 1 },
        'acme-pii': { nested: { a: 1 } },
        'Bad Id': {},
      }),
    ).toEqual([
      'injection.threshold must be of type number',
      'auditor injection has no setting colour',
      'toxicity: "not a key" is not a setting name',
      'acme-pii.nested must be a number, boolean, string or list of strings',
      '"Bad Id" is not an auditor id',
    ]);
    expect(auditorSettingsProblems([1])).toEqual(['expected a JSON object {auditor: {setting: value}}']);
  });

  it('refuses a setting that would shadow a variable the webhook sets, or one setting given twice', () => {
    expect(auditorSettingsProblems({ platform: { auditorId: 'x' } })).toEqual([
      'platform.auditorId would set PLATFORM_AUDITOR_ID',
    ]);
    expect(auditorSettingsProblems({ 'acme-pii': { maxItems: 1, max_items: 2 } })).toEqual([
      'acme-pii: maxItems and max_items are one setting',
    ]);
  });

  it('gives the built-in auditors variables they read at start-up, with the value given', async () => {
    const values: Record<string, Record<string, unknown>> = {
      injection: { threshold: 0.65, banSubstrings: ['ignore previous', 'a,b'], invisibleCharCheck: false },
      toxicity: { threatThreshold: 0.4, replacementMessage: 'Filtered, sorry' },
      'model-context': { nearLimitRatio: 0.75, requireKnownModel: true },
      'llm-judge': { threshold: 0.5, model: 'judge-1' },
    };
    for (const [id, settings] of Object.entries(values)) {
      const def = await BUILTIN_AUDITORS[id]!();
      const env = Object.fromEntries(auditorSettingsEnv(id, settings).map((e) => [e.name, e.value]));
      const { table, problems } = buildSettingsTable(def, env);
      const config = resolveConfiguration(def, env);
      expect([...problems, ...config.problems], id).toEqual([]);
      const read = { ...Object.fromEntries(table.fromEnv), ...config.values };
      for (const [key, value] of Object.entries(settings)) {
        const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        expect(read[snake], `${id}.${key}`).toEqual(value);
      }
      expect(BUILTIN_SETTING_TYPES.get(id)?.size, id).toBeGreaterThan(0);
    }
  });
});
