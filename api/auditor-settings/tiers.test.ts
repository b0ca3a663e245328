import { describe, expect, it } from 'vitest';
import type { CascadeInput } from '../../policy/settings-cascade.ts';
import { lockDetail, lockedBy, settingsView, withoutSetting, withSetting } from './tiers.ts';

const input: CascadeInput = {
  org: {
    injection: { threshold: { value: 0.9, enforced: true }, blockOnDetection: { value: true } },
    toxicity: { threshold: { value: 0.8 } },
  },
  workspace: {
    toxicity: { threshold: { value: 0.6 }, severeThreshold: { value: 0.9, enforced: true } },
  },
  agent: { toxicity: { insultThreshold: { value: 0.3 } } },
};

const badgeOf = (scope: 'org' | 'workspace' | 'agent', auditor: string, setting: string) =>
  settingsView(input, scope).find((v) => v.auditor_id === auditor && v.setting === setting);

describe('settings as a tier sees them: the five badges', () => {
  it('LOCKED (Set by Org Admin) below the org, not editable', () => {
    expect(badgeOf('workspace', 'injection', 'threshold')).toMatchObject({
      badge: 'LOCKED (Set by Org Admin)',
      badge_kind: 'LOCKED',
      editable: false,
      value: 0.9,
    });
  });

  it('LOCKED (Set by Workspace) at the agent; the workspace itself sees its own lock', () => {
    expect(badgeOf('agent', 'toxicity', 'severeThreshold')).toMatchObject({
      badge: 'LOCKED (Set by Workspace)',
      editable: false,
    });
    expect(badgeOf('workspace', 'toxicity', 'severeThreshold')).toMatchObject({
      badge: 'DIRECT',
      locked: true,
      editable: true,
    });
  });

  it('INHERITED (from: org), editable', () => {
    expect(badgeOf('agent', 'injection', 'blockOnDetection')).toMatchObject({
      badge: 'INHERITED (from: org)',
      source: 'org',
      editable: true,
    });
  });

  it('OVERRIDDEN with the parent value', () => {
    expect(badgeOf('workspace', 'toxicity', 'threshold')).toMatchObject({
      badge: 'OVERRIDDEN (org default: 0.8)',
      parent_value: 0.8,
      parent_scope: 'org',
    });
  });

  it('DIRECT when only this tier sets it', () => {
    expect(badgeOf('agent', 'toxicity', 'insultThreshold')).toMatchObject({
      badge: 'DIRECT',
      source: 'agent',
    });
  });
});

describe('writes to a tier', () => {
  it('finds the lock above a tier, the org first', () => {
    expect(lockedBy(input, 'agent', 'injection', 'threshold')).toBe('org');
    expect(lockedBy(input, 'agent', 'toxicity', 'severe_threshold')).toBe('workspace');
    expect(lockedBy(input, 'workspace', 'toxicity', 'severeThreshold')).toBeUndefined();
    expect(lockedBy(input, 'org', 'injection', 'threshold')).toBeUndefined();
    expect(lockDetail('injection', 'threshold', 'org')).toContain(
      'injection.threshold is LOCKED (Set by Org Admin)',
    );
  });

  it('sets a value under its camelCase name and locks it only when asked', () => {
    expect(withSetting(undefined, 'toxicity', 'severe_threshold', { value: 0.5, enforced: false })).toEqual({
      toxicity: { severeThreshold: { value: 0.5 } },
    });
    expect(withSetting(input.org, 'toxicity', 'threshold', { value: 0.7, enforced: true }).toxicity).toEqual({
      threshold: { value: 0.7, enforced: true },
    });
  });

  it('resets a value in either spelling and drops an emptied auditor', () => {
    expect(withoutSetting(input.agent, 'toxicity', 'insult_threshold')).toEqual({ next: {}, removed: true });
    expect(withoutSetting(input.agent, 'toxicity', 'threshold')).toEqual({
      next: input.agent,
      removed: false,
    });
  });
});
