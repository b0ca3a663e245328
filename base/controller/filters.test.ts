import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  annotationChanged,
  anyChange,
  deletionChanged,
  generationChanged,
  labelsChanged,
  type ObjectEvent,
} from './filters.ts';

const agent = (meta: KubernetesObject['metadata']): KubernetesObject => ({
  metadata: { name: 'a', namespace: 'ns', ...meta },
});
const update = (old: KubernetesObject, obj: KubernetesObject): ObjectEvent => ({ type: 'update', obj, old });

describe('change filters', () => {
  const before = agent({ generation: 1, labels: { team: 'x' }, annotations: { hash: 'h1' } });

  it('drop an update that changed only the status', () => {
    const after = { ...before, status: { phase: 'running' } } as KubernetesObject;
    for (const filter of [generationChanged, labelsChanged, annotationChanged('hash'), deletionChanged])
      expect(filter(update(before, after))).toBe(false);
  });

  it('pass an update that changed what they watch, and only that', () => {
    const bumped = agent({ ...before.metadata, generation: 2 });
    expect(generationChanged(update(before, bumped))).toBe(true);
    expect(labelsChanged(update(before, bumped))).toBe(false);
    const relabelled = agent({ ...before.metadata, labels: { team: 'y' } });
    expect(labelsChanged(update(before, relabelled))).toBe(true);
    const rehashed = agent({ ...before.metadata, annotations: { hash: 'h2', other: 'o' } });
    expect(annotationChanged('hash')(update(before, rehashed))).toBe(true);
    expect(annotationChanged('other')(update(before, agent({ ...before.metadata })))).toBe(false);
    const deleting = agent({ ...before.metadata, deletionTimestamp: new Date(0) });
    expect(deletionChanged(update(before, deleting))).toBe(true);
  });

  it('always pass adds and deletes', () => {
    expect(generationChanged({ type: 'add', obj: before })).toBe(true);
    expect(labelsChanged({ type: 'delete', obj: before })).toBe(true);
  });

  it('combine with anyChange', () => {
    const filter = anyChange(generationChanged, annotationChanged('hash'));
    const rehashed = agent({ ...before.metadata, annotations: { hash: 'h2' } });
    expect(filter(update(before, rehashed))).toBe(true);
    expect(filter(update(before, agent({ ...before.metadata })))).toBe(false);
  });
});
