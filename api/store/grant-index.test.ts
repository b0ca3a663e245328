import { describe, expect, it } from 'vitest';
import type { DelegationGrant } from '../../crds/generated/types.ts';
import { MemoryCache } from './cache.ts';
import { grantsOfDelegation } from './grant-index.ts';

const grant = (name: string, user: string, service: string): DelegationGrant => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'DelegationGrant',
  metadata: { namespace: 'ns', name },
  spec: { user, agent: 'a', service, scopes: ['r'], grantedAt: '', expiresAt: '', consentRef: 'c' },
});
const names = (gs: DelegationGrant[]): string[] => gs.map((g) => g.metadata.name ?? '').sort();

describe('grantsOfDelegation', () => {
  it('files grants by user and service, following adds, updates and deletes', () => {
    const cache = new MemoryCache<DelegationGrant>();
    cache.set(grant('g1', 'u', 'slack'));
    expect(names(grantsOfDelegation(cache, 'u', 'slack'))).toEqual(['g1']);
    cache.set(grant('g2', 'u', 'slack'));
    cache.set(grant('g3', 'v', 'slack'));
    expect(names(grantsOfDelegation(cache, 'u', 'slack'))).toEqual(['g1', 'g2']);
    cache.set(grant('g2', 'u', 'mail'));
    expect(names(grantsOfDelegation(cache, 'u', 'slack'))).toEqual(['g1']);
    expect(names(grantsOfDelegation(cache, 'u', 'mail'))).toEqual(['g2']);
    cache.delete(grant('g1', 'u', 'slack'));
    expect(grantsOfDelegation(cache, 'u', 'slack')).toEqual([]);
    expect(names(grantsOfDelegation(cache, 'v', 'slack'))).toEqual(['g3']);
  });
});
