import { describe, expect, it } from 'vitest';
import { testMutateOptions } from '../testing/fixtures.ts';
import {
  ANNOTATION_VALIDATORS,
  cpuMillis,
  memoryBytes,
  parseAuditorList,
  validateAnnotations,
} from './annotations.ts';
import { assignPorts, configMapChain, resolveChain } from './chain.ts';

const dir = testMutateOptions().directory;

describe('annotation validation table', () => {
  it('has one validator per documented annotation', () => {
    expect(Object.keys(ANNOTATION_VALIDATORS).sort()).toEqual([
      'platform.computing/api-key-secret',
      'platform.computing/audit-mode',
      'platform.computing/auditor-chain',
      'platform.computing/auditor-settings',
      'platform.computing/auditors',
      'platform.computing/model-url',
      'platform.computing/policy-id',
      'platform.computing/sidecar-cpu-limit',
      'platform.computing/sidecar-cpu-request',
      'platform.computing/sidecar-memory-limit',
      'platform.computing/sidecar-memory-request',
      'platform.computing/skip-audit',
      'platform.computing/svid-secret',
      'platform.computing/workspace-id',
    ]);
  });

  it('reads what the operator writes for the gateway: model URL, key Secret, settings, workspace', () => {
    const { settings, errors } = validateAnnotations(
      {
        'platform.computing/model-url': 'http://10.88.0.1:11434/v1',
        'platform.computing/api-key-secret': 'agent-bot-gateway-key',
        'platform.computing/auditor-settings': '{"injection":{"threshold":0.7}}',
        'platform.computing/workspace-id': 'research',
      },
      dir,
    );
    expect(errors).toEqual([]);
    expect(settings).toMatchObject({
      modelUrl: 'http://10.88.0.1:11434/v1',
      apiKeySecret: 'agent-bot-gateway-key',
      auditorSettings: { injection: { threshold: 0.7 } },
      workspaceId: 'research',
    });
  });

  it('refuses a bad model URL, Secret name, settings or workspace id with a clear reason', () => {
    const { errors } = validateAnnotations(
      {
        'platform.computing/model-url': 'http://user:pw@10.0.0.1/v1',
        'platform.computing/api-key-secret': 'Not_A_Name',
        'platform.computing/auditor-settings': '{"injection":{"threshold":"high"}}',
        'platform.computing/workspace-id': 'a b',
      },
      dir,
    );
    expect(errors).toEqual([
      'platform.computing/model-url: a model URL carries no credentials',
      'platform.computing/api-key-secret: expected a Secret name (DNS subdomain)',
      'platform.computing/auditor-settings: injection.threshold must be of type number',
      'platform.computing/workspace-id: expected a workspace id ([A-Za-z0-9._:-], at most 253)',
    ]);
    const bad = (v: string) =>
      validateAnnotations({ 'platform.computing/auditor-settings': v }, dir).errors[0] ?? '';
    expect(bad('{"injection":')).toMatch(/^platform.computing\/auditor-settings: not JSON: /);
    expect(bad('[]')).toMatch(/expected a JSON object/);
    expect(validateAnnotations({ 'platform.computing/model-url': 'ftp://x' }, dir).errors).toEqual([
      'platform.computing/model-url: expected an http or https URL',
    ]);
  });

  it('defaults to enforce, no skip and the spec resources when nothing is annotated', () => {
    expect(validateAnnotations(undefined, dir)).toEqual({
      settings: {
        mode: 'enforce',
        skip: false,
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      },
      errors: [],
    });
  });

  it('collects every error in one pass', () => {
    const { errors } = validateAnnotations(
      {
        'platform.computing/auditors': 'x,,y',
        'platform.computing/audit-mode': 'strict',
        'platform.computing/skip-audit': 'TRUE',
        'platform.computing/sidecar-cpu-limit': '-1',
      },
      dir,
    );
    expect(errors).toHaveLength(4);
  });

  it('rejects control characters before any validator sees the value', () => {
    expect(validateAnnotations({ 'platform.computing/audit-mode': 'enforce\n' }, dir).errors).toEqual([
      'platform.computing/audit-mode: contains control characters',
    ]);
  });

  it('parses auditor lists strictly', () => {
    expect(parseAuditorList(' injection , toxicity ', dir)).toEqual({ ids: ['injection', 'toxicity'] });
    expect(parseAuditorList('injection,injection', dir).error).toMatch(/listed twice/);
    expect(parseAuditorList('Injection', dir).error).toMatch(/malformed auditor id/);
    expect(parseAuditorList('ghost', dir).error).toMatch(/unknown auditor ghost/);
    expect(parseAuditorList('', dir)).toEqual({ ids: [] });
  });

  it('parses Kubernetes quantities', () => {
    expect([cpuMillis('100m'), cpuMillis('0.5'), cpuMillis('2'), cpuMillis('0'), cpuMillis('1.5m')]).toEqual([
      100,
      500,
      2000,
      undefined,
      undefined,
    ]);
    expect([memoryBytes('128Mi'), memoryBytes('1G'), memoryBytes('12'), memoryBytes('1.5Gi')]).toEqual([
      134217728,
      1e9,
      12,
      undefined,
    ]);
  });
});

describe('chain resolution and ports', () => {
  const settings = validateAnnotations({}, dir).settings;

  it('uses the ordered union of the ConfigMap lists', () => {
    expect(
      configMapChain({ preRequest: 'toxicity,injection', postResponse: 'injection,acme-pii' }, dir),
    ).toEqual({
      ids: ['toxicity', 'injection', 'acme-pii'],
    });
  });

  it('falls back to the default chain when the ConfigMap lists are empty, and always appends the system auditors', () => {
    expect(resolveChain(settings, { preRequest: '' }, dir).chain).toEqual({
      ids: ['injection', 'toxicity', 'model-context', 'llm-judge'],
      source: 'default',
    });
  });

  it('keeps built-in ports fixed and moves third-party auditors off taken or reserved ports', () => {
    const { placed } = assignPorts(['acme-pii', 'acme-secrets', 'acme-legacy', 'injection'], dir, [8101]);
    expect(Object.fromEntries(placed.map((p) => [p.id, p.assignedPort]))).toEqual({
      'acme-pii': 8080,
      'acme-secrets': 8102,
      'acme-legacy': 8103,
      injection: 8090,
    });
  });

  it('refuses a pod whose own port is a fixed platform port', () => {
    expect(assignPorts(['injection'], dir, [8090]).error).toBe(
      "the pod's port 8090 collides with auditor injection",
    );
  });
});
