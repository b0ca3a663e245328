import { describe, expect, it } from 'vitest';
import type {
  AgentInstalledApp,
  AppCatalogEntry,
  ApprovalRequest,
  AuditorPolicy,
  AuditorRegistration,
  ScopedToolInstall,
} from '../../crds/generated/types.ts';
import {
  approvalReady,
  catalogReady,
  installedAppReady,
  policyCheck,
  policyReady,
  toolInstallReady,
} from './decide.ts';

const NOW = new Date('2026-01-01T12:00:00Z');
const meta = (name: string, namespace = 'team') => ({ name, namespace });

function approval(status?: ApprovalRequest['status'], expiresAt = '2026-01-01T13:00:00Z'): ApprovalRequest {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ApprovalRequest',
    metadata: meta('approval-1'),
    spec: { agent: 'helper', action: 'delete', target: 'agent helper', expiresAt },
    ...(status ? { status } : {}),
  };
}

describe('approvalReady', () => {
  it('is Ready while it waits for a decision before its deadline, and looks again at the deadline', () => {
    const d = approvalReady(approval(), true, NOW);
    expect(d.condition).toMatchObject({ type: 'Ready', status: 'True', reason: 'AwaitingDecision' });
    expect(d.condition.message).toContain('2026-01-01T13:00:00Z');
    expect(d.requeueAfterMs).toBe(3_600_000);
  });

  it('is not Ready while pending on an agent that does not exist', () => {
    const d = approvalReady(approval(), false, NOW);
    expect(d.condition).toMatchObject({ status: 'False', reason: 'AgentNotFound' });
    expect(d.condition.message).toBe('PlatformAgent helper does not exist in namespace team');
  });

  it('is Ready once decided, whether or not its agent still exists (an approved delete removed it)', () => {
    const approved = approval({ phase: 'approved', decidedBy: 'alice', decidedTime: '2026-01-01T12:30:00Z' });
    expect(approvalReady(approved, false, NOW).condition).toMatchObject({
      status: 'True',
      reason: 'Approved',
      message: 'approved by alice at 2026-01-01T12:30:00Z',
    });
    expect(approvalReady(approval({ phase: 'denied', decidedBy: 'bob' }), true, NOW).condition).toMatchObject(
      {
        status: 'True',
        reason: 'Denied',
      },
    );
  });

  it('is settled (Ready, Expired) once its deadline passed undecided, recorded or not', () => {
    const late = approvalReady(approval(undefined, '2026-01-01T11:00:00Z'), false, NOW);
    expect(late).toEqual({
      condition: expect.objectContaining({ status: 'True', reason: 'Expired' }) as unknown,
    });
    expect(approvalReady(approval({ phase: 'expired' }), true, NOW).condition.reason).toBe('Expired');
  });
});

function policy(name: string, spec: Partial<AuditorPolicy['spec']>, namespace = 'team'): AuditorPolicy {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AuditorPolicy',
    metadata: meta(name, namespace),
    spec: { scope: 'workspace', scopeId: 'team', ...spec },
  };
}

describe('policyReady with the API save check', () => {
  const none = { policies: [], auditors: [] as AuditorRegistration[] };

  it('is Ready when its Cedar compiles against the built-in vocabularies', () => {
    const ok = policy('ok', {
      cedar: 'forbid (principal, action, resource) when { context.injection_score >= 900 };',
    });
    expect(policyReady(policyCheck(ok, none)).condition).toMatchObject({
      status: 'True',
      reason: 'Compiled',
    });
  });

  it('is not Ready with InvalidPolicy when its Cedar does not parse or reads an unknown claim', () => {
    const broken = policy('broken', { cedar: 'forbid (principal, action, resource) when {' });
    expect(policyReady(policyCheck(broken, none)).condition).toMatchObject({
      status: 'False',
      reason: 'InvalidPolicy',
    });
    const unknown = policy('unknown', {
      cedar: 'forbid (principal, action, resource) when { context.no_such_claim_score >= 1 };',
    });
    const d = policyReady(policyCheck(unknown, none)).condition;
    expect(d).toMatchObject({ status: 'False', reason: 'InvalidPolicy' });
    expect(d.message).toContain('no_such_claim_score');
  });

  it('is not Ready with EnforcementViolation when it loosens its organization policy', () => {
    const org = policy(
      'org',
      {
        scope: 'org',
        scopeId: 'acme',
        detection: { injection_detected: { threshold: { value: 0.8, enforcement: 'ceiling' } } },
      },
      'acme-home',
    );
    const ws = policy('loose', { detection: { injection_detected: { threshold: { value: 0.9 } } } });
    const d = policyReady(policyCheck(ws, { policies: [org, ws], auditors: [], organization: 'acme' }));
    expect(d.condition).toMatchObject({ status: 'False', reason: 'EnforcementViolation' });
    expect(d.condition.message).toContain("enforcement mode 'ceiling'");
    // Another organization's policy does not constrain it.
    const other = policyCheck(ws, { policies: [org, ws], auditors: [], organization: 'globex' });
    expect(policyReady(other).condition.status).toBe('True');
  });
});

function entry(spec: Partial<AppCatalogEntry['spec']>): AppCatalogEntry {
  return {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AppCatalogEntry',
    metadata: { name: 'app' },
    spec: { displayName: 'App', category: 'Auditors', type: 'auditor', auditorId: 'pii', ...spec },
  };
}

describe('catalogReady', () => {
  it('is Ready when the auditors it names are known, and names the unknown ones otherwise', () => {
    expect(catalogReady(entry({}), new Set(['pii'])).condition).toMatchObject({
      status: 'True',
      reason: 'Available',
    });
    const d = catalogReady(entry({ auditorRequirements: ['pii', 'secrets'] }), new Set(['injection']));
    expect(d.condition).toMatchObject({ status: 'False', reason: 'AuditorNotFound' });
    expect(d.condition.message).toMatch(/^auditor\(s\) pii, secrets are neither built in nor registered/);
  });

  it('reads auditorId only of an auditor app', () => {
    const mcp = entry({ type: 'mcp_server', category: 'MCP Servers', auditorId: 'ghost' });
    expect(catalogReady(mcp, new Set()).condition.status).toBe('True');
  });
});

describe('installedAppReady', () => {
  const install: AgentInstalledApp = {
    apiVersion: 'platform.io/v1alpha1',
    kind: 'AgentInstalledApp',
    metadata: meta('helper-jira'),
    spec: { agent: 'helper', app: 'jira' },
  };

  it('is Ready when its agent and its catalog entry exist; says which one is missing otherwise', () => {
    expect(installedAppReady(install, { agent: true, app: true }).condition).toMatchObject({
      status: 'True',
      reason: 'Installed',
    });
    expect(installedAppReady(install, { agent: false, app: true }).condition).toMatchObject({
      status: 'False',
      reason: 'AgentNotFound',
      message: 'PlatformAgent helper does not exist in namespace team',
    });
    expect(installedAppReady(install, { agent: true, app: false }).condition).toMatchObject({
      status: 'False',
      reason: 'AppNotFound',
      message: 'AppCatalogEntry jira does not exist',
    });
  });
});

describe('toolInstallReady', () => {
  const tool = (spec: Partial<ScopedToolInstall['spec']>): ScopedToolInstall => ({
    apiVersion: 'platform.io/v1alpha1',
    kind: 'ScopedToolInstall',
    metadata: meta('tool-github'),
    spec: { scope: 'workspace', scopeId: 'team', tool: 'github', ...spec },
  });

  it('is Ready with its enforcement as the reason when its credential (if any) exists', () => {
    expect(toolInstallReady(tool({}), false).condition).toMatchObject({
      status: 'True',
      reason: 'Available',
      message: 'github is available in workspace team',
    });
    expect(toolInstallReady(tool({ enforcement: 'blocked' }), false).condition.reason).toBe('Blocked');
    expect(
      toolInstallReady(tool({ enforcement: 'required', credentialRef: 'gh' }), true).condition,
    ).toMatchObject({ status: 'True', reason: 'Required' });
  });

  it('is not Ready while the ScopedCredential it names does not exist', () => {
    expect(toolInstallReady(tool({ credentialRef: 'gh' }), false).condition).toMatchObject({
      status: 'False',
      reason: 'CredentialNotFound',
      message: 'ScopedCredential gh does not exist in namespace team',
    });
  });
});
