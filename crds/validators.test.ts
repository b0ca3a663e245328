import { describe, expect, it } from 'vitest';
import { validateResource } from './validators.ts';

const agent = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: { name: 'a' },
  spec,
});

describe('validators built from the kind schemas', () => {
  it('accepts a valid agent and fills defaults on a copy', () => {
    const input = agent({
      owners: [{ subject: 'alice@example.com', role: 'Owner' }],
      environment: { credentialRouting: [{ destination: '*.github.com', ttl: '15m' }] },
    });
    const result = validateResource<{
      spec: { environment: { credentialRouting: Record<string, unknown>[] } };
    }>(input, { applyDefaults: true });
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.value.spec.environment.credentialRouting[0]).toMatchObject({
      injectionMethod: 'sidecar',
      approval: 'auto',
    });
    expect(JSON.stringify(input)).not.toContain('sidecar');
  });

  it('refuses control characters in short strings; free text may hold line breaks and tabs only', () => {
    for (const bad of ['\u007f', '\u0091', '\u009f', '\u001b', '\n']) {
      const result = validateResource(agent({ owners: [{ subject: `a${bad}b`, role: 'Owner' }] }));
      expect(result.valid, JSON.stringify(bad)).toBe(false);
      if (!result.valid) expect(result.issues[0]?.pointer).toBe('/spec/owners/0/subject');
    }
    const abilities = (personality: string) => agent({ abilities: { soul: { personality } } });
    expect(validateResource(abilities('line one\n\tline two\r\n')).valid).toBe(true);
    expect(validateResource(abilities('bell\u0007')).valid).toBe(false);
    expect(validateResource(abilities('c1\u0085')).valid).toBe(false);
  });

  it('accepts an agent with no owners (it is suspended, not rejected)', () => {
    expect(validateResource(agent({ owners: [] })).valid).toBe(true);
  });

  it('reports every error at once with pointer and expectation', () => {
    const result = validateResource(
      agent({
        owners: [{ subject: 'a', role: 'Admin' }],
        environment: {
          credentialRouting: [{ destination: 'api.*.com', ttl: '15s', injectionMethod: 'magic' }],
        },
      }),
    );
    expect(result.valid).toBe(false);
    if (result.valid) return;
    const byPointer = Object.fromEntries(result.issues.map((i) => [i.pointer, i]));
    expect(byPointer['/spec/owners/0/role']?.expected).toBe('one of Owner, Editor, Viewer');
    expect(byPointer['/spec/environment/credentialRouting/0/destination']?.keyword).toBe('pattern');
    expect(byPointer['/spec/environment/credentialRouting/0/ttl']?.keyword).toBe('pattern');
    expect(byPointer['/spec/environment/credentialRouting/0/injectionMethod']?.expected).toBe(
      'one of sidecar, client_credentials, token_exchange',
    );
  });

  it('rejects duplicate owners by subject (x-kubernetes-list-type map)', () => {
    const result = validateResource(
      agent({
        owners: [
          { subject: 'a', role: 'Owner' },
          { subject: 'a', role: 'Viewer' },
        ],
      }),
    );
    expect(result.valid).toBe(false);
    if (!result.valid)
      expect(result.issues[0]).toMatchObject({ pointer: '/spec/owners', expected: 'unique entries' });
  });

  it('rejects unknown fields like the apiserver in strict mode, but keeps free-form blocks', () => {
    const bad = validateResource(agent({ owner: 'x' }));
    expect(bad.valid).toBe(false);
    if (!bad.valid) expect(bad.issues[0]?.pointer).toBe('/spec/owner');
    const tool = { name: 'gh', configuration: { anything: { nested: [1, 2] } } };
    expect(validateResource(agent({ environment: { tools: [tool] } })).valid).toBe(true);
  });

  it('accepts any JSON value as an auditor setting value', () => {
    const settings = {
      injection: { threshold: { value: 0.8, enforced: true }, banSubstrings: { value: ['ignore previous'] } },
    };
    expect(validateResource(agent({ auditorSettings: settings })).valid).toBe(true);
  });

  it('checks ranges, digests and SPIFFE ids', () => {
    const policy = {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'AuditorPolicy',
      metadata: { name: 'p' },
      spec: {
        scope: 'org',
        scopeId: 'acme',
        responseRules: [{ name: 'r', claim: 'x_score', threshold: 1.5, decision: 'deny' }],
      },
    };
    const r = validateResource(policy);
    expect(r.valid).toBe(false);
    if (!r.valid)
      expect(r.issues[0]).toMatchObject({ pointer: '/spec/responseRules/0/threshold', keyword: 'maximum' });
    const reg = {
      apiVersion: 'platform.io/v1alpha1',
      kind: 'ModelRegistration',
      metadata: { name: 'm' },
      spec: { modelId: 'm', deploymentMode: 'sidecar', image: 'x', imageDigest: 'sha256:abc' },
    };
    const d = validateResource(reg);
    expect(d.valid).toBe(false);
    const status = { spiffeId: 'spiffe://example.org/agent/team-a.bot' };
    expect(validateResource({ ...agent({}), status }).valid).toBe(true);
    expect(validateResource({ ...agent({}), status: { spiffeId: 'spiffe://example.org/bot' } }).valid).toBe(
      false,
    );
  });

  it('names the known kinds for an unknown kind', () => {
    const r = validateResource({ apiVersion: 'platform.io/v1alpha1', kind: 'Nope', metadata: {} });
    expect(r.valid).toBe(false);
    if (!r.valid) expect(r.issues[0]?.expected).toContain('PlatformWorkspace');
  });
});
