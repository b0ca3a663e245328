import { describe, expect, it } from 'vitest';
import { wrapTarget } from './focus.ts';

describe('wrapTarget', () => {
  const items = ['a', 'b', 'c'];
  it('wraps at both ends and lets Tab move inside', () => {
    expect(wrapTarget(items, 'c', false)).toBe('a');
    expect(wrapTarget(items, 'a', true)).toBe('c');
    expect(wrapTarget(items, 'b', false)).toBeUndefined();
    expect(wrapTarget(items, 'b', true)).toBeUndefined();
  });
  it('brings focus back in from outside', () => {
    expect(wrapTarget(items, 'z', false)).toBe('a');
    expect(wrapTarget(items, null, true)).toBe('c');
    expect(wrapTarget([], 'a', false)).toBeUndefined();
  });
});
