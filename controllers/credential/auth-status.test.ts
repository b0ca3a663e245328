import { describe, expect, it } from 'vitest';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import { credentialAuth } from './auth-status.ts';

function credential(
  spec: Partial<ScopedCredential['spec']> = {},
  status?: ScopedCredential['status'],
): ScopedCredential {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedCredential',
    metadata: { name: 'jira', namespace: 'team' },
    spec: {
      scope: 'workspace',
      scopeId: 'ws',
      service: 'jira',
      type: 'api_key',
      secretRef: { name: 's', key: 'token' },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

describe('credentialAuth', () => {
  it('is connected only when the named Secret holds the named key', () => {
    expect(credentialAuth(credential(), { secret: true, keys: ['token'] })).toMatchObject({
      authStatus: 'connected',
      condition: { status: 'True', reason: 'MaterialPresent' },
    });
    expect(credentialAuth(credential(), { secret: false })).toMatchObject({
      authStatus: 'pending',
      condition: { status: 'False', reason: 'SecretNotFound' },
    });
    expect(credentialAuth(credential(), { secret: true, keys: ['password'] })).toMatchObject({
      authStatus: 'error',
      condition: { status: 'False', reason: 'KeyNotFound', message: expect.stringContaining('token') },
    });
  });

  it('is pending for an OAuth flow that has not run (no Secret named)', () => {
    const flow = credential({ type: 'oauth_flow', secretRef: undefined });
    expect(credentialAuth(flow, undefined)).toMatchObject({
      authStatus: 'pending',
      condition: { reason: 'FlowNotRun' },
    });
  });

  it('is Ready when the material is there and nobody found it expired or revoked', () => {
    expect(credentialAuth(credential(), { secret: true, keys: ['token'] }).ready).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'MaterialPresent',
      message: 'Secret s',
    });
    expect(credentialAuth(credential(), { secret: false }).ready).toMatchObject({
      status: 'False',
      reason: 'SecretNotFound',
    });
    const revoked = credential({}, { authStatus: 'revoked' });
    expect(credentialAuth(revoked, { secret: true, keys: ['token'] }).ready).toMatchObject({
      status: 'False',
      reason: 'Revoked',
    });
  });

  it('keeps expired and revoked, which the material being there does not undo', () => {
    for (const authStatus of ['expired', 'revoked'] as const) {
      const c = credential({}, { authStatus });
      expect(credentialAuth(c, { secret: true, keys: ['token'] }).authStatus).toBe(authStatus);
    }
    const wasPending = credential({}, { authStatus: 'pending' });
    expect(credentialAuth(wasPending, { secret: true, keys: ['token'] }).authStatus).toBe('connected');
  });
});
