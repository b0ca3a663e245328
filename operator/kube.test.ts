import { describe, expect, it } from 'vitest';
import { orUndefinedOn404 } from './kube.ts';

describe('orUndefinedOn404', () => {
  it('passes the result through', async () => {
    expect(await orUndefinedOn404(Promise.resolve({ kind: 'Pod' }))).toEqual({ kind: 'Pod' });
  });

  it('turns a 404 into undefined and rethrows anything else', async () => {
    expect(await orUndefinedOn404(Promise.reject(Object.assign(new Error('gone'), { code: 404 })))).toBe(
      undefined,
    );
    const conflict = Object.assign(new Error('conflict'), { code: 409 });
    await expect(orUndefinedOn404(Promise.reject(conflict))).rejects.toBe(conflict);
    await expect(orUndefinedOn404(Promise.reject(new Error('network')))).rejects.toThrow('network');
  });
});
