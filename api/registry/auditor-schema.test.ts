import { describe, expect, it } from 'vitest';
import { INJECTION_CATALOG } from '../../auditors/injection/vocabulary.ts';
import { API_VERSION } from '../../contract/kube.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { INJECTION_SCHEMA, REGISTERED_CLAIMS, registeredSchema } from '../../test/fixtures/auditor-schema.ts';
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
    expect(schema).toEqual(INJECTION_SCHEMA);
  });

  it('derives labels and controls for a registered auditor’s settings', () => {
    expect(auditorSettingsSchema('pii', registration(REGISTERED_CLAIMS))).toEqual(registeredSchema('pii'));
  });

  it('knows no schema for an unknown auditor', () => {
    expect(auditorSettingsSchema('nobody', undefined)).toBeUndefined();
    expect(labelOf('x')).toBe('X');
  });
});
