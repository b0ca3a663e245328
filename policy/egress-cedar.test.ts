import { describe, expect, it } from 'vitest';
import type { AccessQuestion, EgressAction, EgressRule } from '../contract/egress.ts';
import { effectiveManifest } from './access-manifest.ts';
import {
  cedarString,
  decideEgress,
  egressCedar,
  egressPolicies,
  egressRequest,
  type EgressPolicyInput,
} from './egress-cedar.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const LATER = '2026-03-02T12:00:00Z';
const AGENT = 'team-a.helper';

const input = (over: Partial<EgressPolicyInput> = {}): EgressPolicyInput => ({
  agentId: AGENT,
  suspended: false,
  owners: [
    { subject: 'alice', role: 'Owner' },
    { subject: 'bob', role: 'Viewer' },
  ],
  manifest: effectiveManifest(
    {
      network: {
        allowedHosts: ['api.example.com', '*.example.com', 'mail.test', 'files.test'],
        deniedHosts: ['bad.example.com'],
      },
      actions: { denied: ['merge'] },
    },
    undefined,
  ),
  rules: [
    { service: 'mail', injectionMethod: 'token_exchange', credentialAvailable: true },
    { service: 'files', injectionMethod: 'sidecar', credentialAvailable: false },
  ],
  grants: [
    { user: 'alice', service: 'mail', expiresAt: LATER, phase: 'active' },
    { user: 'bob', service: 'mail', expiresAt: LATER, phase: 'revoked', revokedTime: '2026-03-01T00:00:00Z' },
    { user: 'carol', service: 'mail', expiresAt: LATER, phase: 'active' },
    { user: 'dave', service: 'mail', expiresAt: '2026-03-01T11:00:00Z', phase: 'active' },
  ],
  now: NOW,
  ...over,
});

const rule = (service: string, injectionMethod: EgressRule['injectionMethod']): EgressRule => ({
  destination: `${service}.test`,
  injectionMethod,
  approval: 'auto',
  service,
  source: 'agent',
});

function ask(cedar: string, host: string, over: Partial<AccessQuestion> = {}) {
  const q: AccessQuestion = {
    host,
    port: 443,
    action: 'read' as EgressAction,
    method: 'GET',
    user: '',
    ...over,
  };
  return decideEgress(egressPolicies(cedar), egressRequest(AGENT, q));
}

describe('egressCedar', () => {
  const cedar = egressCedar(input());

  it('allows an allowed host and denies one outside the list', () => {
    expect(ask(cedar, 'api.example.com')).toEqual({ allow: true });
    expect(ask(cedar, 'API.Example.com')).toEqual({ allow: true });
    expect(ask(cedar, 'other.net')).toEqual({ allow: false, reasons: ['no permit applies'] });
  });

  it('matches a wildcard on subdomains only, never the apex nor a look-alike', () => {
    const only = egressCedar(
      input({ manifest: effectiveManifest({ network: { allowedHosts: ['*.example.com'] } }) }),
    );
    expect(ask(only, 'deep.sub.example.com')).toEqual({ allow: true });
    expect(ask(only, 'example.com').allow).toBe(false);
    expect(ask(only, 'example.com.evil.net').allow).toBe(false);
    expect(ask(only, 'evilexample.com').allow).toBe(false);
  });

  it('forbids a denied host even under an allowed wildcard', () => {
    expect(ask(cedar, 'bad.example.com')).toEqual({
      allow: false,
      reasons: ['forbid: network.denied_host:bad.example.com'],
    });
  });

  it('requires every tier to allow a host; no allowed list permits any host', () => {
    const both = effectiveManifest(
      { network: { allowedHosts: ['a.test', 'b.test'] } },
      { network: { allowedHosts: ['b.test'] } },
    );
    const narrowed = egressCedar(input({ manifest: both }));
    expect(ask(narrowed, 'a.test').allow).toBe(false);
    expect(ask(narrowed, 'b.test').allow).toBe(true);
    expect(ask(egressCedar(input({ manifest: effectiveManifest() })), 'anything.test').allow).toBe(true);
  });

  it('forbids a denied action', () => {
    expect(ask(cedar, 'api.example.com', { action: 'merge', method: 'POST' })).toEqual({
      allow: false,
      reasons: ['forbid: actions.denied:merge'],
    });
    expect(ask(cedar, 'api.example.com', { action: 'write', method: 'POST' }).allow).toBe(true);
  });

  it('permits nothing for a suspended agent or one without an Owner', () => {
    const suspended = egressCedar(input({ suspended: true }));
    expect(suspended).not.toContain('permit');
    expect(ask(suspended, 'api.example.com')).toEqual({ allow: false, reasons: ['forbid: agent.suspended'] });
    const orphan = egressCedar(input({ owners: [{ subject: 'bob', role: 'Viewer' }] }));
    expect(orphan).not.toContain('permit');
    expect(ask(orphan, 'api.example.com').allow).toBe(false);
  });

  it('lets a token_exchange service through only on behalf of a sharer with an active grant', () => {
    const mail = rule('mail', 'token_exchange');
    const onBehalf = (user: string) => ask(cedar, 'mail.test', { user, rule: mail });
    expect(onBehalf('alice')).toEqual({ allow: true });
    // bob's grant is revoked, carol does not share the agent, dave's grant expired, nobody is nobody.
    for (const user of ['bob', 'carol', 'dave', ''])
      expect(onBehalf(user)).toEqual({ allow: false, reasons: ['forbid: grants.on_behalf_of:mail'] });
  });

  it('forbids a token_exchange service entirely when no grant is active', () => {
    const none = egressCedar(input({ grants: [] }));
    expect(ask(none, 'mail.test', { user: 'alice', rule: rule('mail', 'token_exchange') }).allow).toBe(false);
  });

  it('drops the access of a user whose share is removed', () => {
    const unshared = egressCedar(input({ owners: [{ subject: 'zoe', role: 'Owner' }] }));
    expect(ask(unshared, 'mail.test', { user: 'alice', rule: rule('mail', 'token_exchange') }).allow).toBe(
      false,
    );
  });

  it('forbids routed calls of a sidecar rule whose credential is withheld', () => {
    expect(ask(cedar, 'files.test', { rule: rule('files', 'sidecar') })).toEqual({
      allow: false,
      reasons: ['forbid: credential.unavailable:files'],
    });
    const given = egressCedar(
      input({ rules: [{ service: 'files', injectionMethod: 'sidecar', credentialAvailable: true }] }),
    );
    expect(ask(given, 'files.test', { rule: rule('files', 'sidecar') })).toEqual({ allow: true });
  });

  it('keeps quotes and backslashes in names inside their string literals', () => {
    expect(cedarString('a"b\\c\n')).toBe('"a\\"b\\\\c\\u{a}"');
    const odd = egressCedar(
      input({
        rules: [{ service: 'x") || true || ("', injectionMethod: 'sidecar', credentialAvailable: false }],
      }),
    );
    expect(ask(odd, 'api.example.com')).toEqual({ allow: true });
    expect(ask(odd, 'api.example.com', { rule: rule('x") || true || ("', 'sidecar') }).allow).toBe(false);
  });
});
