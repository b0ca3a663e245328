import { describe, expect, it } from 'vitest';
import {
  buildSettingsTable,
  effectiveSettings,
  overrideProblems,
  resolveConfiguration,
  resolveSetting,
} from './settings.ts';
import type { AuditorDefinition } from './types.ts';

const def: Pick<AuditorDefinition, 'id' | 'vocabulary' | 'configuration'> = {
  id: 'injection',
  vocabulary: [
    {
      name: 'injection_detected',
      type: 'boolean',
      description: '',
      value_schema: {},
      settings: [
        { key: 'threshold', type: 'number', default: 0.8 },
        { key: 'ban_substrings', type: 'string[]', default: ['ignore previous'] },
      ],
    },
    { name: 'injection_score', type: 'score_normalized', description: '', value_schema: {} },
  ],
  configuration: { mode: { type: 'string', default: 'fast', description: '' } },
};

describe('setting resolution', () => {
  it('uses the declared default when nothing else is set', () => {
    const { table } = buildSettingsTable(def, {});
    expect(resolveSetting(table, 'injection_detected', 'threshold')).toBe(0.8);
  });

  it('prefers the auditor environment variable over the default', () => {
    const { table } = buildSettingsTable(def, {
      INJECTION_THRESHOLD: '0.6',
      INJECTION_BAN_SUBSTRINGS: 'a, b',
    });
    expect(resolveSetting(table, 'injection_detected', 'threshold')).toBe(0.6);
    expect(resolveSetting(table, 'injection_detected', 'ban_substrings')).toEqual(['a', 'b']);
  });

  it('prefers the per-claim policy override over the environment', () => {
    const { table } = buildSettingsTable(def, { INJECTION_THRESHOLD: '0.6' });
    const overrides = { injection_detected: { threshold: 0.95 } };
    expect(resolveSetting(table, 'injection_detected', 'threshold', overrides)).toBe(0.95);
  });

  it('accepts an override spelled in camelCase', () => {
    const { table } = buildSettingsTable(def, {});
    const overrides = { injection_detected: { banSubstrings: ['x'] } };
    expect(resolveSetting(table, 'injection_detected', 'ban_substrings', overrides)).toEqual(['x']);
  });

  it('does not apply an override given for another claim', () => {
    const { table } = buildSettingsTable(def, {});
    expect(
      resolveSetting(table, 'injection_detected', 'threshold', { injection_score: { threshold: 0.1 } }),
    ).toBe(0.8);
  });

  it('lists every effective setting of a claim for provenance', () => {
    const { table } = buildSettingsTable(def, { INJECTION_THRESHOLD: '0.5' });
    expect(effectiveSettings(table, 'injection_detected')).toEqual({
      threshold: 0.5,
      ban_substrings: ['ignore previous'],
    });
    expect(effectiveSettings(table, 'injection_score')).toEqual({});
  });

  it('reports an environment value of the wrong type, naming the variable', () => {
    const { problems } = buildSettingsTable(def, { INJECTION_THRESHOLD: 'strict' });
    expect(problems).toEqual(['INJECTION_THRESHOLD="strict": expected a number']);
  });

  it('throws for a setting the auditor did not declare', () => {
    const { table } = buildSettingsTable(def, {});
    expect(() => resolveSetting(table, 'injection_detected', 'nope')).toThrow(/not declared/);
  });

  it('reports overrides of the wrong type and ignores unknown claims and keys', () => {
    const { table } = buildSettingsTable(def, {});
    const problems = overrideProblems(table, {
      injection_detected: { threshold: 'high', unknown_key: 1 },
      toxicity_detected: { threshold: 'x' },
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('injection_detected.threshold must be of type number');
  });

  it('resolves configuration from the environment, else the default', () => {
    expect(resolveConfiguration(def, {}).values).toEqual({ mode: 'fast' });
    expect(resolveConfiguration(def, { INJECTION_MODE: 'thorough' }).values).toEqual({ mode: 'thorough' });
  });
});
