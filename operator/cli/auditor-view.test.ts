import { describe, expect, it } from 'vitest';
import {
  auditorRegistration,
  authBody,
  boundsOf,
  checkLines,
  checkSummary,
  modelRegistration,
  schemaRows,
} from './auditor-view.ts';
import { CliError } from './errors.ts';

const DIGEST = `sha256:${'a'.repeat(64)}`;

const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    return (err as CliError).line();
  }
  throw new Error('no usage error');
};

describe('check lines', () => {
  const checks = [
    { id: 'health', ok: true, problems: [] },
    { id: 'claims.request', ok: false, problems: ['status "error"', 'claim x is not declared'] },
    { id: 'batch', ok: true, skipped: true, problems: [] },
    { id: 'endpoint.models', ok: true, problems: [], note: '2 models' },
  ];

  it('say PASS, FAIL with the problems, or SKIP, one line per check', () => {
    expect(checkLines(checks).split('\n')).toEqual([
      'PASS  health',
      'FAIL  claims.request: status "error"; claim x is not declared',
      'SKIP  batch',
      'PASS  endpoint.models (2 models)',
    ]);
    expect(checkSummary(checks)).toBe('4 checks: 2 passed, 1 failed, 1 skipped');
  });
});

describe('the settings schema table', () => {
  it('has one row per claim setting with its type, default and bounds', () => {
    const rows = schemaRows({
      auditor_id: 'kw',
      claims: [
        {
          name: 'kw_detected',
          type: 'boolean',
          settings: [
            { key: 'threshold', type: 'number', default: 0.5, min: 0, max: 1, step: 0.05 },
            { key: 'keywords', type: 'string[]', default: ['a', 'b'] },
          ],
        },
        {
          name: 'kw.matches',
          type: 'string_list',
          settings: [{ key: 'model', type: 'string', default: null }],
        },
      ],
    });
    expect(rows).toEqual([
      { claim: 'kw_detected', key: 'threshold', type: 'number', default: 0.5, bounds: '0–1 (step 0.05)' },
      { claim: 'kw_detected', key: 'keywords', type: 'string[]', default: '[a, b]', bounds: '' },
      { claim: 'kw.matches', key: 'model', type: 'string', default: 'null', bounds: '' },
    ]);
  });

  it('writes one-sided bounds', () => {
    expect(boundsOf({ min: 1 })).toBe('≥ 1');
    expect(boundsOf({ max: 9 })).toBe('≤ 9');
    expect(boundsOf({ step: 1 })).toBe('');
  });
});

describe('auth flags', () => {
  it('become the registration auth object', () => {
    expect(authBody({})).toBeUndefined();
    expect(authBody({ auth: 'none' })).toEqual({ type: 'none' });
    expect(authBody({ auth: 'mtls', certFile: 'ca.pem' }, () => 'PEM')).toEqual({
      type: 'mtls',
      cert_pem: 'PEM',
    });
    expect(authBody({ auth: 'api_key', secret: 'scanner-key/token' })).toEqual({
      type: 'api_key',
      secret_ref: { name: 'scanner-key', key: 'token' },
    });
  });

  it('refuse what cannot work, saying what to give', () => {
    expect(usage(() => authBody({ auth: 'mtls' }))).toContain('--cert-file');
    expect(
      usage(() =>
        authBody({ auth: 'mtls', certFile: '/nope' }, () => {
          throw new Error('ENOENT');
        }),
      ),
    ).toContain('cannot read --cert-file /nope');
    expect(usage(() => authBody({ auth: 'api_key', secret: 'no-key' }))).toContain('<secret name>/<key>');
    expect(usage(() => authBody({ auth: 'oauth' }))).toContain('use none, mtls or api_key');
  });
});

describe('an auditor registration from flags', () => {
  it('derives the vocabulary URL from the endpoint and leaves out what was not given', () => {
    expect(
      auditorRegistration({
        id: 'kw',
        name: 'Keyword watch',
        endpoint: 'http://10.0.0.5:8080/',
        phases: 'request, response',
      }),
    ).toEqual({
      auditor_id: 'kw',
      display_name: 'Keyword watch',
      endpoint: 'http://10.0.0.5:8080',
      vocabulary_url: 'http://10.0.0.5:8080/vocabulary',
      supported_phases: ['request', 'response'],
    });
  });

  it('registers a sidecar by image and digest, with no vocabulary URL', () => {
    expect(
      auditorRegistration({
        id: 'kw',
        mode: 'sidecar',
        image: 'reg/kw:1',
        digest: DIGEST,
        workspace: ['a', 'b'],
      }),
    ).toEqual({
      auditor_id: 'kw',
      deployment_mode: 'sidecar',
      image: 'reg/kw:1',
      image_digest: DIGEST,
      workspaces: ['a', 'b'],
    });
  });

  it('refuses bad flags before anything is sent', () => {
    expect(usage(() => auditorRegistration({ id: 'kw' }))).toContain('--endpoint');
    expect(usage(() => auditorRegistration({ id: 'kw', mode: 'pod', endpoint: 'http://x' }))).toContain(
      "unknown --mode 'pod'",
    );
    expect(usage(() => auditorRegistration({ id: 'kw', mode: 'sidecar', endpoint: 'http://x' }))).toContain(
      '--image',
    );
    expect(usage(() => auditorRegistration({ id: 'kw', endpoint: 'ftp://x' }))).toContain(
      'invalid --endpoint',
    );
    expect(usage(() => auditorRegistration({ id: 'kw', image: 'i', digest: 'sha256:1' }))).toContain(
      'invalid --digest',
    );
    expect(
      usage(() => auditorRegistration({ id: 'kw', endpoint: 'http://x', healthInterval: '0' })),
    ).toContain('--health-interval');
  });
});

describe('a model registration from flags', () => {
  it('carries the id, mode, type, endpoint, digest and auth', () => {
    expect(
      modelRegistration({
        id: 'local-echo',
        mode: 'in-cluster',
        type: 'chat',
        endpoint: 'http://127.0.0.1:11434/v1/',
        digest: DIGEST,
        auth: 'none',
      }),
    ).toEqual({
      model_id: 'local-echo',
      deployment_mode: 'in-cluster',
      model_type: 'chat',
      endpoint: 'http://127.0.0.1:11434/v1',
      image_digest: DIGEST,
      auth: { type: 'none' },
    });
  });

  it('refuses an unknown type or mode', () => {
    expect(
      usage(() => modelRegistration({ id: 'm', mode: 'external', type: 'llm', endpoint: 'http://x' })),
    ).toContain("unknown --type 'llm'");
    expect(usage(() => modelRegistration({ id: 'm', mode: 'cloud', endpoint: 'http://x' }))).toContain(
      'sidecar, in-cluster, external',
    );
  });
});
