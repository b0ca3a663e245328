import { describe, expect, it } from 'vitest';
import { INJECTION_CATALOG } from '../../auditors/injection/vocabulary.ts';
import { API_VERSION } from '../../contract/kube.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { auditorSettingsSchema, labelOf } from './auditor-schema.ts';

const registration = (claims: NonNullable<AuditorRegistration['spec']['claims']>): AuditorRegistration => ({
  apiVersion: API_VERSION,
  kind: 'AuditorRegistration',
  metadata: { name: 'pii' },
  spec: {
    auditorId: 'pii',
    category: 'compliance',
    phase: 'input_guarding',
    deploymentMode: 'external',
    claims,
  },
});

describe('the settings schema of an auditor', () => {
  it('serves a built-in auditor’s own setting definitions', () => {
    const schema = auditorSettingsSchema('injection', undefined);
    expect(schema?.builtin).toBe(true);
    expect(schema?.claims.map((c) => c.name)).toEqual(INJECTION_CATALOG.claims.map((c) => c.name));
    const withSettings = schema?.claims.find((c) => c.settings.length > 0);
    expect(withSettings?.settings[0]).toMatchObject({ key: expect.any(String), label: expect.any(String) });
    expect(schema?.claims).toEqual(INJECTION_CATALOG.claims);
  });

  it('derives labels and controls for a registered auditor’s settings', () => {
    const reg = registration([
      {
        name: 'pii.detected',
        type: 'boolean',
        settings: [
          { key: 'min_confidence', type: 'number', default: 0.8 },
          { key: 'entities', type: 'string[]' },
          { key: 'redact', type: 'boolean', default: true },
        ],
      },
      { name: 'pii.count', type: 'count', description: 'How many' },
    ]);
    expect(auditorSettingsSchema('pii', reg)).toEqual({
      auditor_id: 'pii',
      builtin: false,
      claims: [
        {
          name: 'pii.detected',
          type: 'boolean',
          description: '',
          settings: [
            {
              key: 'min_confidence',
              label: 'Min confidence',
              type: 'number',
              default: 0.8,
              control: 'number',
            },
            { key: 'entities', label: 'Entities', type: 'string[]', default: null, control: 'tags' },
            { key: 'redact', label: 'Redact', type: 'boolean', default: true, control: 'toggle' },
          ],
        },
        { name: 'pii.count', type: 'count', description: 'How many', settings: [] },
      ],
    });
  });

  it('knows no schema for an unknown auditor', () => {
    expect(auditorSettingsSchema('nobody', undefined)).toBeUndefined();
    expect(labelOf('x')).toBe('X');
  });
});
