import { describe, expect, it } from 'vitest';
import { claimIdentity, identityCondition, spiffeId, wantedIdentity } from './identity.ts';
import { desiredPod } from './pod.ts';
import { credentialRefsCondition } from './credential-refs.ts';
import type { PlatformAgent } from './types.ts';

function agent(
  name: string,
  created: string,
  spec: Partial<PlatformAgent['spec']> = {},
  status?: PlatformAgent['status'],
): PlatformAgent {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'PlatformAgent',
    metadata: {
      name,
      namespace: 'team',
      uid: `uid-${name}`,
      creationTimestamp: new Date(created),
      generation: 1,
    },
    spec: { owners: [{ subject: 'alice', role: 'Owner' }], ...spec },
    ...(status ? { status } : {}),
  };
}

describe('agent identity', () => {
  it('derives the SPIFFE ID, email and handle from the agent id', () => {
    const a = agent('bot', '2026-01-01T00:00:00Z');
    expect(spiffeId('example.org', a)).toBe('spiffe://example.org/agent/team.bot');
    expect(wantedIdentity(a, 'agents.example.org')).toEqual({
      email: 'bot.team@agents.example.org',
      handle: 'team.bot',
    });
  });

  it('lets the holder keep an email and gives the newcomer a conflict, never overwriting', () => {
    const holder = agent('a', '2026-01-02T00:00:00Z', { email: 'x@e.com' }, { email: 'x@e.com' });
    const newcomer = agent('b', '2026-01-01T00:00:00Z', { email: 'x@e.com' });
    const claim = claimIdentity(newcomer, [holder, newcomer], 'd');
    expect(claim.email).toBeUndefined();
    expect(claim.conflicts).toEqual(['email x@e.com is already held by agent team.a']);
    expect(identityCondition(claim)).toMatchObject({ status: 'True', reason: 'EmailTaken' });
    expect(claimIdentity(holder, [holder, newcomer], 'd')).toMatchObject({ email: 'x@e.com', conflicts: [] });
  });

  it('gives a contested handle to the older of two newcomers', () => {
    const older = agent('a', '2026-01-01T00:00:00Z', { handle: 'h' });
    const younger = agent('b', '2026-01-02T00:00:00Z', { handle: 'h' });
    expect(claimIdentity(older, [older, younger], 'd').handle).toBe('h');
    expect(claimIdentity(younger, [older, younger], 'd')).toMatchObject({
      conflicts: ['handle h is already held by agent team.a'],
    });
  });

  it('keeps the previous email when a changed one clashes', () => {
    const holder = agent('a', '2026-01-01T00:00:00Z', { email: 'new@e.com' }, { email: 'new@e.com' });
    const mover = agent('b', '2026-01-02T00:00:00Z', { email: 'new@e.com' }, { email: 'old@e.com' });
    expect(claimIdentity(mover, [holder, mover], 'd').email).toBe('old@e.com');
  });
});

describe('desiredPod', () => {
  const settings = { image: 'img:1', runtimeClassName: 'kata-qemu-tdx', trustDomain: 'example.org' };

  it('labels the pod secured, annotates chain and audit mode and sets the runtime class', () => {
    const pod = desiredPod(
      agent('bot', '2026-01-01T00:00:00Z', { auditMode: 'observe' }),
      ['model-context', 'llm-judge', 'pii'],
      settings,
    );
    expect(pod.metadata?.labels).toMatchObject({ 'platform.io/secured': 'true', 'platform.io/agent': 'bot' });
    expect(pod.metadata?.annotations).toMatchObject({
      'platform.computing/auditor-chain': 'model-context,llm-judge,pii',
      'platform.computing/audit-mode': 'observe',
    });
    expect(pod.spec).toMatchObject({ runtimeClassName: 'kata-qemu-tdx', serviceAccountName: 'agent-bot' });
    expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'PlatformAgent',
      uid: 'uid-bot',
      controller: true,
    });
  });

  it('prefers the agent image and changes its spec hash when the chain changes', () => {
    const a = agent('bot', '2026-01-01T00:00:00Z', { image: 'mine:2' });
    const one = desiredPod(a, ['a'], settings);
    expect(one.spec?.containers[0]?.image).toBe('mine:2');
    const hash = (chain: string[]) =>
      desiredPod(a, chain, settings).metadata?.annotations?.['platform.io/spec-hash'];
    expect(hash(['a'])).toBe(hash(['a']));
    expect(hash(['a'])).not.toBe(hash(['a', 'b']));
  });
});

describe('credentialRefsCondition', () => {
  it('names every credentialRef without a ScopedCredential in the agent or org home namespace', () => {
    const a = agent('bot', '2026-01-01T00:00:00Z', {
      environment: {
        credentialRouting: [{ destination: 'a.com', credentialRef: 'here' }],
        tools: [
          {
            name: 't',
            credentialRouting: [
              { destination: 'b.com', credentialRef: 'gone' },
              { destination: 'c.com', credentialRef: 'org-cred' },
            ],
          },
        ],
      },
    });
    const exists = (ns: string, name: string) =>
      (ns === 'team' && name === 'here') || (ns === 'home' && name === 'org-cred');
    expect(credentialRefsCondition(a, 'home', exists)).toMatchObject({
      status: 'False',
      reason: 'CredentialNotFound',
    });
    expect(credentialRefsCondition(a, 'home', exists).message).toContain(
      'credentialRef gone names no ScopedCredential',
    );
  });
});
