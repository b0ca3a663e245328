import { describe, expect, it } from 'vitest';
import { forDiff, forOutput, outcomeLine, outcomeOf } from './apply-outcome.ts';

const field = (manager: string, time: string, extra: Record<string, unknown> = {}) => ({
  manager,
  operation: 'Apply',
  apiVersion: 'platform.io/v1alpha1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': { 'f:model': {} } },
  ...extra,
});

const live = {
  apiVersion: 'platform.io/v1alpha1',
  kind: 'PlatformAgent',
  metadata: {
    name: 'bot',
    namespace: 'team',
    uid: 'u1',
    resourceVersion: '10',
    generation: 1,
    creationTimestamp: '2030-01-01T00:00:00Z',
    managedFields: [field('platform-cli', '2030-01-01T00:00:00Z')],
  },
  spec: { model: { id: 'gpt' } },
  status: { phase: 'running' },
};

const withMeta = (meta: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  ...live,
  ...rest,
  metadata: { ...live.metadata, ...meta },
});

describe('what an apply did', () => {
  it('is created when nothing was live', () => {
    expect(outcomeOf(undefined, live)).toBe('created');
  });

  it('is unchanged when the answer is the live object', () => {
    expect(outcomeOf(live, structuredClone(live))).toBe('unchanged');
  });

  it('ignores what the apply does not write: resourceVersion, status, field timestamps, key order', () => {
    const answer = withMeta(
      { resourceVersion: '12', managedFields: [field('platform-cli', '2031-05-05T00:00:00Z')] },
      { status: { phase: 'suspended' } },
    );
    const reordered = Object.fromEntries(Object.entries(answer).reverse());
    expect(outcomeOf(live, reordered)).toBe('unchanged');
  });

  it("ignores the status writers' managedFields and the apiserver's before-first-apply entry", () => {
    const answer = withMeta({
      managedFields: [
        field('platform-cli', '2030-01-01T00:00:00Z'),
        field('platform-operator', '2030-01-02T00:00:00Z', { subresource: 'status', operation: 'Update' }),
        field('before-first-apply', '2030-01-02T00:00:00Z', { operation: 'Update' }),
      ],
    });
    expect(outcomeOf(live, answer)).toBe('unchanged');
    // A Namespace applied with its name alone has no managedFields until the apiserver adds that entry.
    const bare = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', resourceVersion: '1' } };
    const booked = {
      ...bare,
      metadata: { ...bare.metadata, resourceVersion: '2', managedFields: [field('before-first-apply', 't')] },
    };
    expect(outcomeOf(bare, booked)).toBe('unchanged');
  });

  it('is configured when a field, a label or the owner of a field changed', () => {
    expect(outcomeOf(live, { ...live, spec: { model: { id: 'claude' } } })).toBe('configured');
    expect(outcomeOf(live, withMeta({ labels: { team: 'a' } }))).toBe('configured');
    const shared = withMeta({
      managedFields: [
        field('platform-cli', '2030-01-01T00:00:00Z'),
        field('kubectl', '2030-01-01T00:00:00Z'),
      ],
    });
    expect(outcomeOf(live, shared)).toBe('configured');
  });

  it('prints one kubectl line, marked for a dry run', () => {
    expect(outcomeLine('platformagent.platform.io/bot', 'configured', false)).toBe(
      'platformagent.platform.io/bot configured',
    );
    expect(outcomeLine('namespace/team', 'created', true)).toBe('namespace/team created (server dry run)');
  });

  it('shows the object for a diff without server bookkeeping, keys sorted', () => {
    expect(forDiff(live)).toEqual({
      apiVersion: 'platform.io/v1alpha1',
      kind: 'PlatformAgent',
      metadata: { name: 'bot', namespace: 'team' },
      spec: { model: { id: 'gpt' } },
    });
    expect(Object.keys(forDiff({ spec: {}, kind: 'X', apiVersion: 'v1', metadata: {} })!)).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
    expect(forDiff(undefined)).toBeUndefined();
  });

  it('prints applied objects without managedFields', () => {
    const out = forOutput(live);
    expect(out.metadata).not.toHaveProperty('managedFields');
    expect(out.metadata).toMatchObject({ resourceVersion: '10' });
    expect(out.status).toEqual(live.status);
  });
});
