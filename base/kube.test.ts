import { describe, expect, it } from 'vitest';
import { createUnlessExists, orUndefinedOn404 } from './kube.ts';

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

describe('createUnlessExists', () => {
  it('is true when the create succeeded and false when the object already existed', async () => {
    expect(await createUnlessExists(Promise.resolve({}))).toBe(true);
    expect(await createUnlessExists(Promise.reject(Object.assign(new Error('exists'), { code: 409 })))).toBe(
      false,
    );
  });

  it('rethrows every other failure', async () => {
    const forbidden = Object.assign(new Error('forbidden'), { code: 403 });
    await expect(createUnlessExists(Promise.reject(forbidden))).rejects.toBe(forbidden);
  });
});
