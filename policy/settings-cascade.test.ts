import { describe, expect, it } from 'vitest';
import { effectiveSettings, lockViolations, resolveSettings } from './settings-cascade.ts';

const find = (r: ReturnType<typeof resolveSettings>, a: string, s: string) =>
  r.find((x) => x.auditorId === a && x.setting === s)!;

describe('settings cascade org → workspace → agent', () => {
  it('lets the agent win when nothing above is enforced, showing the parent value', () => {
    const r = resolveSettings({
      org: { toxicity: { threshold: { value: 0.8 } } },
      workspace: { toxicity: { threshold: { value: 0.7 } } },
      agent: { toxicity: { threshold: { value: 0.5 } } },
    });
    expect(find(r, 'toxicity', 'threshold')).toMatchObject({
      value: 0.5,
      source: 'agent',
      badge: {
        kind: 'OVERRIDDEN',
        parentScope: 'workspace',
        parentValue: 0.7,
        label: 'OVERRIDDEN (workspace default: 0.7)',
      },
    });
  });

  it('locks an org-enforced value below, ignores the override and reports it', () => {
    const r = resolveSettings({
      org: { injection: { threshold: { value: 0.9, enforced: true } } },
      workspace: { injection: { threshold: { value: 0.1 } } },
      agent: { injection: { threshold: { value: 0.2 } } },
    });
    const s = find(r, 'injection', 'threshold');
    expect(s).toMatchObject({
      value: 0.9,
      source: 'org',
      badge: { kind: 'LOCKED', by: 'org', label: 'LOCKED (Set by Org Admin)' },
    });
    expect(lockViolations(r)).toEqual([
      'injection.threshold is locked by org; the agent value 0.2 is ignored',
    ]);
  });

  it('locks a workspace-enforced value for the agent only', () => {
    const input = {
      org: { injection: { mode: { value: 'observe' } } },
      workspace: { injection: { mode: { value: 'enforce', enforced: true } } },
      agent: { injection: { mode: { value: 'observe' } } },
    };
    expect(find(resolveSettings(input), 'injection', 'mode').badge.label).toBe('LOCKED (Set by Workspace)');
    expect(find(resolveSettings(input, 'workspace'), 'injection', 'mode').badge).toMatchObject({
      kind: 'OVERRIDDEN',
      parentValue: 'observe',
    });
  });

  it('marks inherited and direct settings', () => {
    const r = resolveSettings({
      org: { toxicity: { threshold: { value: 0.8 } } },
      agent: { toxicity: { banSubstrings: { value: ['x'] } } },
    });
    expect(find(r, 'toxicity', 'threshold').badge.label).toBe('INHERITED (from: org)');
    expect(find(r, 'toxicity', 'banSubstrings').badge.label).toBe('DIRECT');
    expect(effectiveSettings(r)).toEqual({ toxicity: { banSubstrings: ['x'], threshold: 0.8 } });
  });

  it('does not report an equal value below a lock as a violation', () => {
    const r = resolveSettings({
      org: { pii: { redact: { value: true, enforced: true } } },
      agent: { pii: { redact: { value: true } } },
    });
    expect(lockViolations(r)).toEqual([]);
  });
});
