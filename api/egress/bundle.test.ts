import { describe, expect, it } from 'vitest';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import {
  agentRuleSources,
  bundleVersion,
  egressBundle,
  mergeRules,
  ttlSeconds,
  type RuleSource,
} from './bundle.ts';

const services: Record<string, string> = { 'gh-token': 'github' };
const credentialService = (name: string) => services[name];

const agent = {
  spec: {
    environment: {
      credentialRouting: [{ destination: 'API.github.com', credentialRef: 'gh-token', approval: 'owner' }],
      tools: [
        {
          name: 'search',
          credentialRouting: [
            { destination: 'api.github.com', injectionMethod: 'token_exchange' },
            { destination: '*.search.test', injectionMethod: 'token_exchange', ttl: '30m' },
          ],
        },
      ],
    },
  },
} as unknown as PlatformAgent;

const install: RuleSource = {
  source: 'install:crm',
  rules: [
    { destination: '*.search.test', injectionMethod: 'client_credentials' },
    { destination: 'mcp.crm.test', injectionMethod: 'client_credentials' },
  ],
  appService: 'crm',
  auth: { method: 'client_credentials', clientId: 'c-1', tokenEndpoint: 'https://as.crm.test/token' },
  issuer: 'https://as.crm.test',
};

describe('mergeRules', () => {
  const rules = mergeRules([...agentRuleSources(agent), install], credentialService);

  it('keeps one rule per destination: the agent spec over its tools, tools over installs', () => {
    expect(rules.map((r) => [r.destination, r.source])).toEqual([
      ['api.github.com', 'agent'],
      ['*.search.test', 'tool:search'],
      ['mcp.crm.test', 'install:crm'],
    ]);
  });

  it("adds the workspace's rules after the agent's own and its tools', before installs", () => {
    const workspaceEnv = {
      credentialRouting: [
        { destination: 'api.github.com', injectionMethod: 'client_credentials' },
        { destination: 'hooks.slack.com', credentialRef: 'slack-bot' },
      ],
      tools: [
        {
          name: 'mail',
          credentialRouting: [{ destination: 'mail.test', injectionMethod: 'token_exchange' }],
        },
      ],
    } as unknown as NonNullable<PlatformAgent['spec']['environment']>;
    const merged = mergeRules([...agentRuleSources(agent, workspaceEnv), install], credentialService);
    expect(merged.map((r) => [r.destination, r.source])).toEqual([
      ['api.github.com', 'agent'],
      ['*.search.test', 'tool:search'],
      ['hooks.slack.com', 'workspace'],
      ['mail.test', 'workspace-tool:mail'],
      ['mcp.crm.test', 'install:crm'],
    ]);
  });

  it('derives the service: the credential’s, the app’s, else the host without its wildcard', () => {
    expect(rules.map((r) => r.service)).toEqual(['github', 'search.test', 'crm']);
  });

  it('fills defaults and the registered client of an install', () => {
    expect(rules[0]).toMatchObject({
      injection_method: 'sidecar',
      approval: 'owner',
      credential_ref: 'gh-token',
    });
    expect(rules[1]).toMatchObject({
      ttl_seconds: 1800,
      approval: 'auto',
      token_endpoint: null,
      client_id: null,
    });
    expect(rules[2]).toMatchObject({
      token_endpoint: 'https://as.crm.test/token',
      client_id: 'c-1',
      audience: 'https://as.crm.test',
    });
  });

  it('falls back to the host when a sidecar credential is unknown', () => {
    const [r] = mergeRules(
      [{ source: 'agent', rules: [{ destination: 'x.test', credentialRef: 'gone' }] }],
      credentialService,
    );
    expect(r?.service).toBe('x.test');
  });
});

describe('bundle version', () => {
  const parts = {
    agent_id: 'a.b',
    rules: [],
    mcp_servers: [{ name: 'crm', url: 'https://mcp.crm.test' }],
    cedar: 'x',
  };

  it('is the sha256 of the rest, stable under key order, and changes with the Cedar text', () => {
    const v = egressBundle(parts).version;
    expect(v).toMatch(/^[a-f0-9]{64}$/);
    expect(bundleVersion({ cedar: 'x', mcp_servers: parts.mcp_servers, rules: [], agent_id: 'a.b' })).toBe(v);
    expect(egressBundle({ ...parts, cedar: 'y' }).version).not.toBe(v);
  });

  it('reads ttls in minutes and hours only', () => {
    expect([ttlSeconds('2h'), ttlSeconds('5m'), ttlSeconds('10s'), ttlSeconds(undefined)]).toEqual([
      7200,
      300,
      undefined,
      undefined,
    ]);
  });
});
