import { describe, expect, it } from 'vitest';
import type { PlatformAgentSpec } from '../../crds/generated/types.ts';
import { changesBesidesAuditMode, loweredAuditMode } from './audit-mode.ts';
import { updatedSpec } from './model.ts';

const base: PlatformAgentSpec = { owners: [{ subject: 'o', role: 'Owner' }], model: { id: 'm' } };

describe('lowering the audit mode', () => {
  it('is enforce (set or by default) to observe', () => {
    expect(loweredAuditMode({ ...base, auditMode: 'enforce' }, { ...base, auditMode: 'observe' })).toEqual({
      from: 'enforce',
      to: 'observe',
    });
    expect(loweredAuditMode(base, updatedSpec(base, { auditMode: 'observe' }))).toEqual({
      from: 'enforce',
      to: 'observe',
    });
  });

  it('is not raising it, keeping it, clearing it to the default or an invalid mode', () => {
    const observing = { ...base, auditMode: 'observe' as const };
    expect(loweredAuditMode(observing, { ...base, auditMode: 'enforce' })).toBeUndefined();
    expect(loweredAuditMode(observing, updatedSpec(observing, { auditMode: null }))).toBeUndefined();
    expect(loweredAuditMode(observing, observing)).toBeUndefined();
    expect(loweredAuditMode(base, updatedSpec(base, { auditMode: 'off' }))).toBeUndefined();
  });
});

describe('changes besides the audit mode', () => {
  it('ignores the mode and fields resent unchanged', () => {
    const next = updatedSpec(base, { auditMode: 'observe', model: { id: 'm' } });
    expect(changesBesidesAuditMode(base, next)).toBe(false);
  });
  it('sees any other change', () => {
    expect(changesBesidesAuditMode(base, updatedSpec(base, { auditMode: 'observe', image: 'x' }))).toBe(true);
  });
});
