import { describe, expect, it } from 'vitest';
import { EXIT } from './errors.ts';
import { kubeError } from './apply-kube.ts';
import { conflictError } from './apply-run.ts';
import { dryRunOf } from './apply-command.ts';

describe('apply errors and flags', () => {
  it('names each conflicting field and its manager, and suggests --force-conflicts', () => {
    const reply = {
      status: 409,
      body: {
        kind: 'Status',
        reason: 'Conflict',
        message: 'Apply failed with 2 conflicts: ...',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "kubectl" using platform.io/v1alpha1',
              field: '.spec.displayName',
            },
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "ci-bot" using platform.io/v1alpha1',
              field: '.spec.organization',
            },
          ],
        },
      },
    };
    const e = conflictError('platformworkspace.platform.io/research', reply);
    expect(e.exitCode).toBe(EXIT.failed);
    expect(e.line()).toBe(
      'platformworkspace.platform.io/research: conflict: .spec.displayName is owned by field manager "kubectl", .spec.organization is owned by field manager "ci-bot"; re-run with --force-conflicts to take these fields over, or leave them out of your file',
    );
  });

  it('maps apiserver refusals to exit codes: 401 → 3, 5xx → 4, other → 1, with the message', () => {
    expect(kubeError('x', { status: 401, body: {} }).exitCode).toBe(EXIT.auth);
    expect(kubeError('x', { status: 503, body: { message: 'etcd down' } }).exitCode).toBe(EXIT.unreachable);
    const forbidden = kubeError('namespace/a', {
      status: 403,
      body: { message: 'namespaces "a" is forbidden' },
    });
    expect([forbidden.exitCode, forbidden.line()]).toEqual([
      EXIT.failed,
      'namespace/a: namespaces "a" is forbidden',
    ]);
  });

  it('takes --dry-run as server or none, bare as server', () => {
    expect(dryRunOf(undefined)).toBe(false);
    expect(dryRunOf('none')).toBe(false);
    expect(dryRunOf(true)).toBe(true);
    expect(dryRunOf('server')).toBe(true);
    expect(() => dryRunOf('client')).toThrow(/invalid --dry-run 'client'/);
  });
});
