// Trust tiers fail closed (issue 13, finding 3): an auditor nobody registered,
// and Evidence naming no auditor, earn `unverified`, never `mtls_verified`.
import { describe, expect, it } from 'vitest';
import { auditorTrustFacts } from '../api/registry/auditors.ts';
import { auditorTier, evidenceTier, registrationCeiling } from './trust.ts';
import type { AuditorOutcome } from './types.ts';

const podLocal = { channel: 'pod_local' } as AuditorOutcome;

describe('trust tiers fail closed', () => {
  it('gives an auditor nobody registered nothing, whatever channel it claims', () => {
    expect(registrationCeiling(undefined)).toBe('unverified');
    expect(auditorTier(podLocal, undefined, false)).toBe('unverified');
    expect(auditorTier(podLocal, auditorTrustFacts('made-up-auditor', undefined), true)).toBe('unverified');
  });

  it('gives Evidence naming no auditor nothing', () => {
    expect(evidenceTier([], false)).toBe('unverified');
    expect(evidenceTier([], true)).toBe('unverified');
  });

  it('keeps built-in sidecars and registered auditors at what their registration earns', () => {
    expect(auditorTrustFacts('injection', undefined)).toEqual({ deploymentMode: 'sidecar' });
    expect(auditorTier(podLocal, auditorTrustFacts('injection', undefined), false)).toBe('mtls_verified');
    expect(auditorTier(podLocal, auditorTrustFacts('injection', undefined), true)).toBe('tee_attested');
    expect(evidenceTier(['mtls_verified', 'key_authenticated'], false)).toBe('key_authenticated');
    expect(
      auditorTier(
        { channel: 'api_key' } as AuditorOutcome,
        { deploymentMode: 'external', authType: 'api_key' },
        false,
      ),
    ).toBe('key_authenticated');
  });
});
