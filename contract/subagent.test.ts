// Reading the subagent a call names from its headers.
import { describe, expect, it } from 'vitest';
import { subagentOf } from './subagent.ts';

describe('subagentOf', () => {
  it('names no subagent when the header is absent', () => {
    expect(subagentOf({})).toEqual({ ok: true, subagent: undefined });
  });

  it('takes a subagent name as sent', () => {
    expect(subagentOf({ 'x-platform-subagent': 'planner' })).toEqual({ ok: true, subagent: 'planner' });
    expect(subagentOf({ 'x-platform-subagent': 'web researcher/v2:1' })).toEqual({
      ok: true,
      subagent: 'web researcher/v2:1',
    });
  });

  it('refuses an empty, overlong, control-character or repeated header', () => {
    for (const bad of ['', ' x', '-x', 'a,b', 'a\tb', 'x'.repeat(254), ['a', 'b']]) {
      const r = subagentOf({ 'x-platform-subagent': bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem).toMatch(/^header x-platform-subagent: /);
    }
  });
});
