import { describe, expect, it } from 'vitest';
import { ApiError, describeError, errorBodyOf } from './errors.ts';

describe('describeError', () => {
  it('says in words what each status means', () => {
    expect(describeError(new ApiError(401, 'invalid API key'))).toMatch(/Sign in again/);
    expect(describeError(new ApiError(403, 'only an Owner or an administrator grants the Owner role'))).toBe(
      'You are not allowed to do this. Only an Owner or an administrator grants the Owner role.',
    );
    expect(describeError(new ApiError(409, 'another decision was recorded first; reload'))).toMatch(
      /^Another decision was recorded first; reload\. It changed meanwhile/,
    );
    expect(describeError(new ApiError(409, 'app x is required by organization acme', 'app_required'))).toBe(
      'App x is required by organization acme.',
    );
    expect(describeError(new ApiError(422, 'ttl exceeds the longest delegation (8h)'))).toBe(
      'Ttl exceeds the longest delegation (8h).',
    );
    expect(describeError(new ApiError(503, 'keyring unavailable'))).toMatch(
      /could not do this right now \(503\)/,
    );
    expect(describeError(new TypeError('Failed to fetch'))).toMatch(/Could not reach the server/);
  });

  it('reads only the API error shape', () => {
    expect(errorBodyOf({ detail: 'x', code: 'y' })).toEqual({ detail: 'x', code: 'y' });
    expect(errorBodyOf({ detail: 'x', code: 3 })).toEqual({ detail: 'x' });
    expect(errorBodyOf({ error: 'x' })).toBeUndefined();
    expect(errorBodyOf('x')).toBeUndefined();
  });
});
