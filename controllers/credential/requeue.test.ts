import { describe, expect, it } from 'vitest';
import { waitingRequeueMs } from './controller.ts';

describe('waitingRequeueMs', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('looks again soon at a credential made in the last two minutes (its Secret follows it)', () => {
    expect(waitingRequeueMs('2026-11-28T11:59:50Z', now)).toBe(2_000);
  });
  it('looks every minute at an older one, or one without a creation time', () => {
    expect(waitingRequeueMs('2026-11-28T11:50:00Z', now)).toBe(60_000);
    expect(waitingRequeueMs(undefined, now)).toBe(60_000);
  });
});
