// Issue 13, finding 6, repeated: an Editor stored DEL and C1 control
// characters in a share subject and an approval target, and from then on
// `kubectl get platformagents -A -o yaml` failed for the whole cluster. Each
// attempt is now 422 `control_characters` naming the field, nothing is
// written, and the apiserver's own schema refuses the same strings when the
// API is bypassed. kubectl still lists every agent and approval as YAML.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { apiStatus, k8s } from '../../base/kube.ts';
import { defaultOwners, storedAgent, useApi, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-hygiene');
const fx = useApi(ns);
const HOSTILE = ['\u007f', '\u0091', '\u009f'] as const;
let agentId = '';

function kubectl(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const bin = findBinary('kubectl');
  if (!bin) throw new Error('kubectl is not built (npm run control-plane:build)');
  return spawnSync(bin, ['--kubeconfig', inject('kubeconfigPath'), ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

function expectRefused(r: Reply, field: string, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(422);
  expect(r.body.code, what).toBe('control_characters');
  expect(String(r.body.detail), what).toMatch(new RegExp(`^${field}: U\\+00[79][1F] at position \\d+`));
}

const hex = (c: string): string => `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const custom = () => kubeConfig().makeApiClient(k8s.CustomObjectsApi);

beforeAll(async () => {
  agentId = await fx.createAgent('hostile');
});

describe('control characters from an Editor', () => {
  it('in a share subject, an approval target, a path subject or a query are 422 naming the field; nothing is written', async () => {
    const name = agentId.slice(agentId.indexOf('.') + 1);
    const before = (await storedAgent(ns.name, name)).metadata.resourceVersion;
    const key = fx.keys.editor;
    for (const c of HOSTILE) {
      const share = await fx.call('POST', `/v1/agents/${agentId}/shares`, {
        key,
        body: { subject: `mallory${c}@example.com`, role: 'Viewer' },
      });
      expectRefused(share, 'body/subject', `share ${hex(c)}`);
      const action = await fx.call('POST', `/v1/agents/${agentId}/actions`, {
        key,
        body: { action: 'write', target: `repo/${c}main`, description: 'push' },
      });
      expectRefused(action, 'body/target', `action ${hex(c)}`);
      const unshare = await fx.call(
        'DELETE',
        `/v1/agents/${agentId}/shares/${encodeURIComponent(`x${c}@example.com`)}`,
        { key },
      );
      expectRefused(unshare, 'path subject', `unshare ${hex(c)}`);
      const listed = await fx.call('GET', `/v1/agents?namespace=${encodeURIComponent(`${ns.name}${c}`)}`, {
        key,
      });
      expectRefused(listed, 'query namespace', `list ${hex(c)}`);
    }
    expect((await storedAgent(ns.name, name)).metadata.resourceVersion).toBe(before);
    const approvals = (await custom().listNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: ns.name,
      plural: 'approvalrequests',
    })) as { items: unknown[] };
    expect(approvals.items).toEqual([]);
  });

  it('the apiserver refuses them too when the API is bypassed', async () => {
    for (const c of HOSTILE) {
      const create = custom().createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: ns.name,
        plural: 'platformagents',
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'PlatformAgent',
          metadata: { name: `bypass-${c.charCodeAt(0)}` },
          spec: { owners: [...defaultOwners(), { subject: `m${c}@example.com`, role: 'Viewer' }] },
        },
      });
      const status = await create.then(
        () => 201,
        (err: unknown) => apiStatus(err),
      );
      expect(status, hex(c)).toBe(422);
    }
  });

  it('kubectl still lists every PlatformAgent and ApprovalRequest as YAML, and so does the API client', async () => {
    for (const plural of ['platformagents', 'approvalrequests']) {
      const out = kubectl('get', plural, '-A', '-o', 'yaml');
      expect(out.stderr, plural).toBe('');
      expect(out.status, plural).toBe(0);
      expect(out.stdout).toContain('items:');
    }
    const listed = (await custom().listClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'platformagents',
    })) as { items: { metadata: { namespace: string; name: string } }[] };
    expect(listed.items.some((a) => `${a.metadata.namespace}.${a.metadata.name}` === agentId)).toBe(true);
    expect(JSON.stringify(listed)).not.toMatch(/[\x7f-\x9f]/);
    expect(parse(stringify(listed))).toEqual(listed);
  });
});
