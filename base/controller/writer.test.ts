import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ObjectWriter } from './writer.ts';

const HASH = 'platform.io/spec-hash';
const withHash = (hash: string, data = ''): KubernetesObject & { data?: string } => ({
  metadata: { name: 'cm', namespace: 'ns', annotations: { [HASH]: hash } },
  data,
});

function setup(): { writer: ObjectWriter; calls: string[]; sync: (current?: KubernetesObject) => object } {
  const writer = new ObjectWriter({ controller: 'test', specHashAnnotation: HASH });
  const calls: string[] = [];
  const sync = (current?: KubernetesObject): object => ({
    kind: 'ConfigMap',
    current,
    desired: withHash('new'),
    create: async () => calls.push('create'),
    patch: async () => calls.push('patch'),
  });
  return { writer, calls, sync };
}

describe('ObjectWriter.createOrPatch', () => {
  it('creates a missing object', async () => {
    const { writer, calls, sync } = setup();
    expect(await writer.createOrPatch(sync() as never)).toBe('created');
    expect(calls).toEqual(['create']);
    expect(writer.writes).toBe(1);
  });

  it('patches an object whose spec hash differs', async () => {
    const { writer, calls, sync } = setup();
    expect(await writer.createOrPatch(sync(withHash('old')) as never)).toBe('patched');
    expect(calls).toEqual(['patch']);
    expect(writer.writes).toBe(1);
  });

  it('writes nothing when the spec hash is equal', async () => {
    const { writer, calls, sync } = setup();
    expect(await writer.createOrPatch(sync(withHash('new')) as never)).toBe('unchanged');
    expect(calls).toEqual([]);
    expect(writer.writes).toBe(0);
  });

  it('compares with upToDate when the object carries no hash, and never patches without a patch', async () => {
    const { writer, calls } = setup();
    const base = { kind: 'ConfigMap', desired: withHash('', 'b'), create: async () => calls.push('create') };
    const byData = { ...base, patch: async () => calls.push('patch') };
    const upToDate = (a: { data?: string }, b: { data?: string }): boolean => a.data === b.data;
    expect(await writer.createOrPatch({ ...byData, current: withHash('', 'a'), upToDate })).toBe('patched');
    expect(await writer.createOrPatch({ ...byData, current: withHash('', 'b'), upToDate })).toBe('unchanged');
    expect(await writer.createOrPatch({ ...base, current: withHash('old') })).toBe('unchanged');
    expect(calls).toEqual(['patch']);
  });
});
