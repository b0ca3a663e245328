import { describe, expect, it } from 'vitest';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { passportStatusPatch } from '../agents/passport-sink.ts';
import { registrationFacts, registrationFrom, vocabulariesOf } from './auditors.ts';

describe('auditor registrations at the Verifier', () => {
  it('turns a self-registration into an AuditorRegistration, keeping stored fields', () => {
    const reg = registrationFrom({
      auditor_id: 'ext',
      endpoint: 'https://ext.example.com',
      deployment_mode: 'external',
      auth: { type: 'mtls', cert_pem: 'PEM' },
    });
    expect(reg.spec).toEqual({
      auditorId: 'ext',
      category: 'security',
      phase: 'input_guarding',
      deploymentMode: 'external',
      endpoint: 'https://ext.example.com',
      auth: { type: 'mtls', certPem: 'PEM' },
    });
    const stored = { ...reg, metadata: { name: 'ext', resourceVersion: '7' } } as AuditorRegistration;
    const again = registrationFrom({ auditor_id: 'ext', endpoint: 'https://ext2.example.com' }, stored);
    expect(again.metadata.resourceVersion).toBe('7');
    expect(again.spec).toMatchObject({ endpoint: 'https://ext2.example.com', auth: { type: 'mtls' } });
    expect(registrationFacts(again)).toEqual({ deploymentMode: 'external', authType: 'mtls' });
  });

  it('records a display name, and keeps it when a later registration names none', () => {
    const reg = registrationFrom({ auditor_id: 'kw', endpoint: 'https://kw', display_name: 'Keyword watch' });
    expect(reg.spec.displayName).toBe('Keyword watch');
    const stored = { ...reg, metadata: { name: 'kw' } } as AuditorRegistration;
    expect(registrationFrom({ auditor_id: 'kw', endpoint: 'https://kw' }, stored).spec.displayName).toBe(
      'Keyword watch',
    );
  });

  it('knows the built-in vocabularies and adds registered claims', () => {
    const reg = registrationFrom({
      auditor_id: 'ext',
      endpoint: 'https://e',
      claims: [{ name: 'pii_detected', type: 'boolean' }],
    });
    const vocabularies = vocabulariesOf([reg]);
    expect(vocabularies.map((v) => v.auditor_id)).toEqual([
      'injection',
      'toxicity',
      'model-context',
      'llm-judge',
      'ext',
    ]);
    const names = vocabularies.flatMap((v) => v.vocabulary.map((e) => e.name));
    expect(names).toEqual(expect.arrayContaining(['injection_detected', 'toxicity_score', 'pii_detected']));
  });

  it('summarises an AttestationResult as the status passport patch', () => {
    const patch = passportStatusPatch({
      trust_tier: 'key_authenticated',
      verified_at: '2025-01-01T00:00:00.000Z',
      auditors: [
        { auditor_id: 'injection', trust_tier: 'mtls_verified' },
        { auditor_id: 'ext', trust_tier: 'key_authenticated' },
      ],
    } as never);
    expect(patch).toEqual({
      trustTier: 'key_authenticated',
      passport: {
        trustTiers: { injection: 'mtls_verified', ext: 'key_authenticated' },
        lastAttestationTime: '2025-01-01T00:00:00.000Z',
      },
    });
  });
});
