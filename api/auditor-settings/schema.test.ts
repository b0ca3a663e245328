import { describe, expect, it } from 'vitest';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { settingProblem, settingsSchemaOf } from './schema.ts';

const registration = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'AuditorRegistration',
  metadata: { name: 'pii-scan' },
  spec: {
    auditorId: 'pii-scan',
    claims: [{ name: 'pii_detected', type: 'boolean', settings: [{ key: 'redact_mode', type: 'string' }] }],
  },
} as unknown as AuditorRegistration;

describe('auditor settings schema', () => {
  const injection = settingsSchemaOf('injection', undefined)!;

  it('takes a built-in auditor’s claim settings with their bounds', () => {
    expect(injection.get('threshold')).toMatchObject({ type: 'number', min: 0, max: 1 });
  });

  it('takes a registered auditor’s claim settings, and knows no unknown auditor', () => {
    expect(settingsSchemaOf('pii-scan', registration)?.get('redact_mode')).toEqual({ type: 'string' });
    expect(settingsSchemaOf('pii-scan', undefined)).toBeUndefined();
  });

  it('accepts a value in range, in either spelling of the name', () => {
    expect(settingProblem('injection', 'threshold', 0.4, injection)).toBe('');
    expect(settingProblem('injection', 'banSubstrings', ['a'], injection)).toBe('');
    expect(settingProblem('injection', 'ban_substrings', null, injection)).toBe('');
  });

  it('names the field and the rule a value breaks', () => {
    expect(settingProblem('injection', 'threshold', 5, injection)).toBe(
      'injection.threshold: must be <= 1; got 5',
    );
    expect(settingProblem('injection', 'threshold', -1, injection)).toBe(
      'injection.threshold: must be >= 0; got -1',
    );
    expect(settingProblem('injection', 'threshold', 'high', injection)).toBe(
      'injection.threshold: must be of type number; got "high"',
    );
    expect(settingProblem('injection', 'colour', 1, injection)).toBe(
      'injection.colour: auditor injection has no setting colour',
    );
  });

  it('holds a string to its options', () => {
    const schema = new Map([['mode', { type: 'string' as const, options: ['block', 'warn'] }]]);
    expect(settingProblem('x', 'mode', 'warn', schema)).toBe('');
    expect(settingProblem('x', 'mode', 'shout', schema)).toBe(
      'x.mode: must be one of ["block","warn"]; got "shout"',
    );
  });
});
