import { describe, expect, it } from 'vitest';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import { policiesAbove, settingClaims, settingEnforcementDetail } from './enforcement.ts';

const policy = (id: string, scope: 'org' | 'workspace', scopeId: string, mode = 'ceiling'): PolicyRecord => ({
  id,
  version: '1',
  spec: {
    scope,
    scopeId,
    detection: { injection_detected: { threshold: { value: 0.8, enforcement: mode as 'ceiling' } } },
  },
});

const ORG = policy('home.org-policy', 'org', 'acme');
const OTHER_ORG = policy('home.other', 'org', 'globex');
const WS = policy('team.ws-policy', 'workspace', 'ws', 'floor');
const NS = policy('team.ns-policy', 'workspace', 'team', 'exact');
const ELSEWHERE = policy('other.ws-policy', 'workspace', 'ws');
const ALL = [WS, OTHER_ORG, NS, ELSEWHERE, ORG];

describe('policiesAbove', () => {
  it('bounds nothing above the org tier', () => {
    expect(policiesAbove({ scope: 'org', organization: 'acme' }, ALL)).toEqual([]);
  });
  it('bounds the workspace tier by its Organization’s org policies only', () => {
    const place = { scope: 'workspace' as const, organization: 'acme', namespace: 'team', workspace: 'ws' };
    expect(policiesAbove(place, ALL).map((p) => p.id)).toEqual(['home.org-policy']);
  });
  it('bounds the agent tier by org policies, then its namespace’s workspace policies', () => {
    const place = { scope: 'agent' as const, organization: 'acme', namespace: 'team', workspace: 'ws' };
    expect(policiesAbove(place, ALL).map((p) => p.id)).toEqual([
      'home.org-policy',
      'team.ns-policy',
      'team.ws-policy',
    ]);
  });
  it('bounds a standalone agent by its namespace’s policy only', () => {
    expect(policiesAbove({ scope: 'agent', namespace: 'team' }, ALL).map((p) => p.id)).toEqual([
      'team.ns-policy',
    ]);
  });
});

describe('settingClaims', () => {
  it('lists the built-in claims that declare a setting, either spelling', () => {
    expect(settingClaims('injection', undefined, 'threshold')).toEqual([
      'injection_detected',
      'injection_score',
    ]);
    expect(settingClaims('injection', undefined, 'banSubstrings')).toEqual([
      'injection_detected',
      'injection.banned_substrings',
    ]);
  });
  it('reads a registered auditor’s claims', () => {
    const reg = {
      spec: {
        claims: [
          { name: 'pii_detected', settings: [{ key: 'min_confidence', type: 'number' }] },
          { name: 'pii_score' },
        ],
      },
    } as unknown as AuditorRegistration;
    expect(settingClaims('pii', reg, 'minConfidence')).toEqual(['pii_detected']);
    expect(settingClaims('pii', undefined, 'minConfidence')).toEqual([]);
  });
});

describe('settingEnforcementDetail', () => {
  const candidate = (value: unknown) => ({
    auditorId: 'injection',
    setting: 'threshold',
    value,
    claims: ['injection_detected', 'injection_score'],
  });
  it('names the setting, the policy, the mode, its bound and the value', () => {
    expect(settingEnforcementDetail(candidate(0.95), [ORG])).toBe(
      "injection.threshold breaks an AuditorPolicy enforcement mode: detection.injection_detected.threshold: enforcement mode 'ceiling' set by policy 'home.org-policy' requires a value <= 0.8; got 0.95",
    );
  });
  it('allows a value within every bound', () => {
    expect(settingEnforcementDetail(candidate(0.8), [ORG])).toBe('');
    expect(settingEnforcementDetail(candidate(0.95), [policy('a.b', 'org', 'acme', 'unlocked')])).toBe('');
  });
  it('refuses a value of the wrong type under a numeric mode', () => {
    expect(settingEnforcementDetail(candidate('high'), [WS])).toContain(
      "enforcement mode 'floor' set by policy 'team.ws-policy' requires a number >= 0.8",
    );
  });
  it('ignores settings no bounded claim declares', () => {
    expect(settingEnforcementDetail({ ...candidate(0.95), claims: [] }, [ORG])).toBe('');
  });
});
