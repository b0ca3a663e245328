import { describe, expect, it } from 'vitest';
import { hashMatches, mintKey } from '../../api/auth/api-key-format.ts';
import { recordFromSecret } from '../../api/auth/key-store.ts';
import { addFinalizerPatch, gatewayKeyObjects, recordSelector, removeFinalizerPatch } from './gateway-key.ts';
import type { PlatformAgent } from './types.ts';
import { FINALIZER } from '../../contract/kube.ts';

const agent = (finalizers?: string[]): PlatformAgent => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { name: 'bot', namespace: 'team', uid: 'uid-1', ...(finalizers ? { finalizers } : {}) },
  spec: {},
});

/** What the apiserver stores for `stringData`. */
const stored = (s: { stringData?: Record<string, string> }) => ({
  ...s,
  data: Object.fromEntries(
    Object.entries(s.stringData ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
  ),
});

describe('the gateway key of an agent', () => {
  it('writes a record the API key store reads as a gateway key bound to the agent and its namespace', () => {
    const minted = mintKey();
    const { record, secret } = gatewayKeyObjects(agent(), minted, 'platform-system', new Date(0));
    expect(record.metadata).toMatchObject({
      name: `platform-api-key-${minted.id}`,
      namespace: 'platform-system',
      labels: { 'platform.io/api-key': 'true', 'platform.io/agent-uid': 'uid-1' },
    });
    expect(JSON.stringify(record)).not.toContain(minted.key);
    const read = recordFromSecret(stored(record));
    expect(read).toMatchObject({
      id: minted.id,
      role: 'gateway',
      subject: 'gateway:team.bot',
      workspaces: ['team'],
      agents: ['team.bot'],
    });
    expect(hashMatches(minted.key, read!.sha256)).toBe(true);
    expect(secret.metadata).toMatchObject({
      name: 'agent-bot-gateway-key',
      namespace: 'team',
      annotations: { 'platform.io/api-key-id': minted.id },
      ownerReferences: [{ kind: 'PlatformAgent', name: 'bot', uid: 'uid-1', controller: true }],
    });
    expect(secret.stringData).toEqual({ 'api-key': minted.key });
    expect(recordSelector(agent())).toBe('platform.io/agent-uid=uid-1');
  });

  it('adds its finalizer without touching others, once, and removes only its own', () => {
    expect(addFinalizerPatch(agent())).toEqual([
      { op: 'add', path: '/metadata/finalizers', value: [FINALIZER.gatewayKey] },
    ]);
    expect(addFinalizerPatch(agent(['other']))).toEqual([
      { op: 'add', path: '/metadata/finalizers/-', value: FINALIZER.gatewayKey },
    ]);
    expect(addFinalizerPatch(agent([FINALIZER.gatewayKey]))).toBeUndefined();
    expect(removeFinalizerPatch(agent(['other', FINALIZER.gatewayKey]))).toEqual([
      { op: 'test', path: '/metadata/finalizers/1', value: FINALIZER.gatewayKey },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ]);
    expect(removeFinalizerPatch(agent(['other']))).toBeUndefined();
  });
});
