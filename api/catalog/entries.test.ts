import { describe, expect, it } from 'vitest';
import type { AgentInstalledApp, AppCatalogEntry, AuditorRegistration } from '../../crds/generated/types.ts';
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import {
  catalogApps,
  filterApps,
  filterProblem,
  findApp,
  installedAuditors,
  installName,
  withRegisteredAuditors,
} from './entries.ts';

function entry(name: string, spec: Partial<AppCatalogEntry['spec']> = {}): AppCatalogEntry {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AppCatalogEntry',
    metadata: { name },
    spec: { displayName: name.toUpperCase(), category: 'MCP Servers', type: 'mcp_server', ...spec },
  };
}

function install(agent: string, app: string): AgentInstalledApp {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AgentInstalledApp',
    metadata: { name: installName(agent, app), namespace: 'team' },
    spec: { agent, app },
  };
}

const SCANNER = entry('scanner', {
  category: 'Auditors',
  type: 'auditor',
  auditorId: 'scan',
  auditorRequirements: ['pii'],
  description: 'Scans secrets',
});
const GITHUB = entry('github', {
  mcpMetadata: { scopes: ['repo'], authorizationServers: ['https://auth.example.com'] },
});

describe('catalogApps', () => {
  it('lists the built-in auditors first, derived from the builtin table, then the entries by name', () => {
    const apps = catalogApps([SCANNER, GITHUB], []);
    expect(apps.map((a) => a.app_id)).toEqual([
      ...BUILTIN_AUDITOR_IDS.map((id) => `builtin-${id}`),
      'github',
      'scanner',
    ]);
    expect(apps[0]).toMatchObject({
      type: 'auditor',
      category: 'Auditors',
      builtin: true,
      auditor_id: 'injection',
    });
    expect(apps.find((a) => a.app_id === 'github')?.mcp_metadata).toEqual({
      authorization_servers: ['https://auth.example.com'],
      scopes: ['repo'],
      resource_indicators: [],
      token_endpoint: null,
    });
  });

  it('counts installs per app and lets a built-in shadow an entry of its name', () => {
    const apps = catalogApps(
      [entry('builtin-injection'), SCANNER],
      [install('a', 'scanner'), install('b', 'scanner'), install('a', 'builtin-injection')],
    );
    expect(apps.filter((a) => a.app_id === 'builtin-injection')).toHaveLength(1);
    expect(apps.find((a) => a.app_id === 'builtin-injection')).toMatchObject({
      builtin: true,
      install_count: 1,
    });
    expect(findApp('scanner', [SCANNER], [install('a', 'scanner')])?.install_count).toBe(1);
    expect(findApp('nope', [SCANNER])).toBeUndefined();
  });
});

describe('filters', () => {
  const apps = catalogApps([SCANNER, GITHUB], []);
  it('filters by category, type and a case-insensitive search', () => {
    expect(filterApps(apps, { category: 'MCP Servers' }).map((a) => a.app_id)).toEqual(['github']);
    expect(filterApps(apps, { type: 'auditor', search: 'SECRETS' }).map((a) => a.app_id)).toEqual([
      'scanner',
    ]);
  });
  it('names an unknown category or type', () => {
    expect(filterProblem({ type: 'plugin' })).toContain('unknown type "plugin"');
    expect(filterProblem({ category: 'Games' })).toContain('unknown category');
    expect(filterProblem({ type: 'skill', category: 'Skills' })).toBeUndefined();
  });
});

describe('installName', () => {
  it('is a DNS label, distinct per agent and app', () => {
    const names = [
      installName('a-b', 'c'),
      installName('a', 'b-c'),
      installName('x'.repeat(63), 'y'.repeat(253)),
    ];
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
  });
});

describe('installedAuditors', () => {
  it("gives an auditor app's auditor and requirements, requirements of other apps, nothing for unknown apps", () => {
    const withReq = entry('tools', { auditorRequirements: ['toxicity'] });
    const installs = [
      install('a', 'scanner'),
      install('a', 'github'),
      install('a', 'tools'),
      install('a', 'gone'),
    ];
    const got = installedAuditors(installs, [SCANNER, GITHUB, withReq]);
    expect(got).toEqual(
      expect.arrayContaining([
        { app: 'scanner', auditors: ['scan', 'pii'] },
        { app: 'tools', auditors: ['toxicity'] },
      ]),
    );
    expect(got).toHaveLength(2);
    expect(installedAuditors([install('a', 'builtin-toxicity')], [])).toEqual([
      { app: 'builtin-toxicity', auditors: ['toxicity'] },
    ]);
  });
});

describe('withRegisteredAuditors', () => {
  const reg = (auditorId: string): AuditorRegistration =>
    ({
      apiVersion: 'platform.io/v1alpha1',
      kind: 'AuditorRegistration',
      metadata: { name: auditorId },
      spec: {
        auditorId,
        category: 'security',
        phase: 'input_guarding',
        deploymentMode: 'external',
        endpoint: 'https://a.example',
        auth: { type: 'none' },
      },
    }) as AuditorRegistration;

  it('adds each registered auditor as an auditor app, never a built-in, and a stored entry of that name wins', () => {
    const stored = entry('registered-shadowed', {
      displayName: 'Curated',
      category: 'Auditors',
      type: 'auditor',
      auditorId: 'shadowed',
    });
    // An auditor entry under another name that lists the same auditor shadows it too (no app twice).
    const curated = entry('pii-scanner', {
      displayName: 'PII',
      category: 'Auditors',
      type: 'auditor',
      auditorId: 'pii',
    });
    const out = withRegisteredAuditors(
      [stored, curated],
      [reg('acme'), reg('shadowed'), reg('pii'), reg(BUILTIN_AUDITOR_IDS[0]!)],
    );
    expect(out.map((e) => e.metadata.name)).toEqual([
      'registered-shadowed',
      'pii-scanner',
      'registered-acme',
    ]);
    const app = findApp('registered-acme', out);
    expect(app).toMatchObject({
      type: 'auditor',
      category: 'Auditors',
      auditor_id: 'acme',
      trust_tier: 'unverified',
      builtin: false,
    });
    expect(findApp('registered-shadowed', out)?.name).toBe('Curated');
  });
});
