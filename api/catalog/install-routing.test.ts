import { describe, expect, it } from 'vitest';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import { appService, clientCredentialsRule, enforcedRule } from './install-routing.ts';
import { enforcedCredential as enforcedOf, resolveCredentials } from '../scoped/credential-cascade.ts';
import type { ToolTiers } from './tool-cascade.ts';

/** Step 2's lookup as the install flow makes it: the cascade's enforced credential of the service. */
function enforcedCredential(creds: ScopedCredential[], tiers: ToolTiers, service: string) {
  const e = enforcedOf(resolveCredentials(creds, tiers), service);
  return e && { name: e.credential.metadata.name, scope: e.credential.spec.scope };
}

const TIERS = { org: { name: 'acme', namespace: 'acme-home' }, workspace: { name: 'ws', namespace: 'team' } };

function credential(
  name: string,
  namespace: string,
  spec: Partial<ScopedCredential['spec']> = {},
): ScopedCredential {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedCredential',
    metadata: { name, namespace },
    spec: {
      scope: 'workspace',
      scopeId: 'ws',
      service: 'github',
      type: 'api_key',
      sharingMode: 'enforce',
      ...spec,
    },
  };
}

describe('the service of an app', () => {
  it('is spec.service, else the host of its server URL', () => {
    expect(appService({ service: 'github', serverUrl: 'https://x.example/' })).toBe('github');
    expect(appService({ serverUrl: 'https://MCP.Example.com:8443/mcp' })).toBe('mcp.example.com');
    expect(appService({})).toBeUndefined();
  });
});

describe('the enforced credential of a service', () => {
  it('is the workspace tier’s enforce credential', () => {
    expect(enforcedCredential([credential('gh', 'team')], TIERS, 'github')).toEqual({
      name: 'gh',
      scope: 'workspace',
    });
  });

  it('is the org tier’s over the workspace tier’s', () => {
    const org = credential('gh-org', 'acme-home', { scope: 'org', scopeId: 'acme' });
    expect(enforcedCredential([credential('gh', 'team'), org], TIERS, 'github')).toEqual({
      name: 'gh-org',
      scope: 'org',
    });
  });

  it.each([
    ['inherit', credential('gh', 'team', { sharingMode: 'inherit' })],
    ['isolated', credential('gh', 'team', { sharingMode: 'isolated' })],
    ['another service', credential('gh', 'team', { service: 'jira' })],
    ['another workspace', credential('gh', 'team', { scopeId: 'other' })],
    ['another org', credential('gh', 'acme-home', { scope: 'org', scopeId: 'globex' })],
    ['the right scope in the wrong namespace', credential('gh', 'elsewhere')],
  ])('ignores a credential of %s', (_, c) => {
    expect(enforcedCredential([c], TIERS, 'github')).toBeUndefined();
  });

  it('binds nothing for an agent outside any workspace', () => {
    expect(enforcedCredential([credential('gh', 'team')], {}, 'github')).toBeUndefined();
  });
});

describe('routing rules', () => {
  it('route the server host to the enforced credential (sidecar) or the agent’s client (client_credentials)', () => {
    expect(enforcedRule('https://mcp.example.com/mcp', 'gh')).toEqual({
      destination: 'mcp.example.com',
      credentialRef: 'gh',
      injectionMethod: 'sidecar',
      approval: 'auto',
    });
    expect(clientCredentialsRule('http://127.0.0.1:4000/mcp')).toEqual({
      destination: '127.0.0.1',
      injectionMethod: 'client_credentials',
      approval: 'auto',
    });
  });
});
