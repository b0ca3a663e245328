// Every CRD on a real apiserver: the samples apply server-side, kubectl shows
// the platform category and the agent columns, and each invalid fixture is
// rejected with the message kept in its golden file. A golden without a
// fixture, or a fixture without a golden, fails. UPDATE_GOLDEN=1 rewrites them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { findBinary, REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { applyDefinitionFile } from '../../crds/definitions/validate.ts';
import { ALL_KINDS } from '../../crds/index.ts';
import { apiMessage, k8s } from '../../base/kube.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { acquireSamplesLock } from './samples-lock.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const SAMPLES = join(REPO_ROOT, 'config/samples');
const INVALID = join(REPO_ROOT, 'test/fixtures/invalid');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const ns = useNamespace('crds');

type Obj = { kind: string; metadata: { name: string }; spec?: unknown; status?: unknown };

type Run = { status: number | null; stdout: string; stderr: string };

/** kubectl with `input` on its standard input. */
function kubectlWith(input: string | undefined, ...args: string[]): Run {
  const bin = findBinary('kubectl');
  if (!bin) throw new Error('kubectl is not built (npm run control-plane:build)');
  return spawnSync(bin, ['--kubeconfig', inject('kubeconfigPath'), ...args], { input, encoding: 'utf8' });
}
const kubectl = (...args: string[]): Run => kubectlWith(undefined, ...args);

/**
 * Every sample, with the test's namespace where a namespaced sample names
 * none (as `kubectl apply -f config/samples` puts it in the current one); a
 * sample that names its namespace (the org tier's, in the org's home
 * namespace) keeps it, which `kubectl -n` would refuse.
 */
function samplesInTestNamespace(): string {
  const namespaced = new Set(ALL_KINDS.filter((k) => k.scope === 'Namespaced').map((k) => k.kind));
  return readdirSync(SAMPLES)
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(SAMPLES, f), 'utf8')))
    .map((d) => d.toJS() as Obj & { metadata: { namespace?: string } })
    .map((o) =>
      namespaced.has(o.kind) && !o.metadata.namespace
        ? { ...o, metadata: { ...o.metadata, namespace: ns.name } }
        : o,
    )
    .map((o) => JSON.stringify(o))
    .join('\n---\n');
}

function target(obj: Obj): {
  group: string;
  version: string;
  plural: string;
  name: string;
  namespace?: string;
} {
  const def = ALL_KINDS.find((k) => k.kind === obj.kind);
  if (!def) throw new Error(`unknown kind ${obj.kind}`);
  const base = { group: GROUP, version: VERSION, plural: def.plural, name: obj.metadata.name };
  return def.scope === 'Namespaced' ? { ...base, namespace: ns.name } : base;
}

const applyOptions = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);

async function apply(obj: Obj, status = false): Promise<void> {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  const t = target(obj);
  const common = { fieldManager: 'crds-test', fieldValidation: 'Strict', force: true, body: obj };
  if (t.namespace === undefined) {
    await (status
      ? api.patchClusterCustomObjectStatus({ ...t, ...common }, applyOptions)
      : api.patchClusterCustomObject({ ...t, ...common }, applyOptions));
  } else {
    const nsT = { ...t, namespace: t.namespace };
    await (status
      ? api.patchNamespacedCustomObjectStatus({ ...nsT, ...common }, applyOptions)
      : api.patchNamespacedCustomObject({ ...nsT, ...common }, applyOptions));
  }
}

/** The apiserver's rejection message for a fixture, or `accepted`. */
async function rejection(file: string): Promise<string> {
  const obj = parseAllDocuments(readFileSync(join(INVALID, file), 'utf8'))[0]!.toJS() as Obj;
  try {
    if (file.includes('.status.')) {
      const { status, ...rest } = obj;
      await apply(rest);
      await apply({ ...rest, status } as Obj, true);
    } else await apply(obj);
    return 'accepted';
  } catch (err) {
    return apiMessage(err);
  }
}

// The samples' cluster-wide objects are shared with cli-apply.test.ts: one file at a time applies them.
let releaseSamples: (() => void) | undefined;
beforeAll(async () => {
  releaseSamples = await acquireSamplesLock();
  // The other file's clean-up may still be removing the org's home namespace.
  await eventually(
    () => {
      const phase = kubectl('get', 'namespace', 'platform-org-acme', '-o', 'jsonpath={.status.phase}');
      return phase.stdout === 'Terminating' ? undefined : true;
    },
    'namespace platform-org-acme not terminating',
    120_000,
  );
}, 700_000);

afterAll(() => {
  // Cluster-scoped samples outlive the namespace; remove them so other files start clean.
  kubectlWith(samplesInTestNamespace(), 'delete', '--ignore-not-found', '--wait=false', '-f', '-');
  releaseSamples?.();
});

describe('custom resource definitions on the apiserver', () => {
  it('applies every sample server-side with strict field validation', () => {
    const out = kubectlWith(
      samplesInTestNamespace(),
      'apply',
      '--server-side',
      '--field-manager=crds-test',
      '-f',
      '-',
    );
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const docs = readdirSync(SAMPLES).flatMap((f) =>
      parseAllDocuments(readFileSync(join(SAMPLES, f), 'utf8')),
    );
    expect(out.stdout.trim().split('\n')).toHaveLength(docs.length);
    // The sample org policy binds the whole cluster: other files validate policies meanwhile.
    const removed = kubectl(
      'delete',
      '-n',
      ns.name,
      '--wait=true',
      '-f',
      join(SAMPLES, 'auditor-policies.yaml'),
    );
    expect(removed.status, removed.stderr).toBe(0);
  });

  it('lists every kind under `kubectl get platform`', () => {
    const out = kubectl('api-resources', '--categories=platform', '-o', 'name');
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split('\n').sort()).toEqual(ALL_KINDS.map((k) => `${k.plural}.${GROUP}`).sort());
    const get = kubectl('get', 'platform', '-n', ns.name, '-o', 'name');
    expect(get.stdout).toContain('platformagent.platform.io/release-bot');
    expect(get.stdout).toContain('platformworkspace.platform.io/research');
  });

  it('shows phase, owner, trust tier, Ready and age for platformagents', () => {
    const out = kubectl('get', 'platformagents', '-n', ns.name);
    expect(out.stdout.split('\n')[0]).toMatch(/^NAME\s+PHASE\s+OWNER\s+OWNERS\s+TRUST TIER\s+READY\s+AGE/);
    expect(out.stdout).toMatch(/release-bot\s+carol@example\.com\s/);
  });

  it('fills schema defaults (sidecar injection, auto approval)', async () => {
    const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
    const ws = (await api.getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: ns.name,
      plural: 'platformagents',
      name: 'release-bot',
    })) as { spec: { auditMode: string; environment: { credentialRouting: { approval: string }[] } } };
    expect(ws.spec.environment.credentialRouting[0]!.approval).toBe('auto');
  });

  it('applies a workspace definition file as one PlatformWorkspace carrying its agents', async () => {
    // The workspace controller creates one PlatformAgent per spec.agents[] entry
    // (test/integration/workspace.test.ts); the file itself applies as the workspace.
    const text = readFileSync(join(REPO_ROOT, 'test/fixtures/definitions/workspace-top-level.yaml'), 'utf8');
    const applied = await applyDefinitionFile(text, (r) => apply(r as unknown as Obj), {
      namespace: ns.name,
    });
    expect(applied.map((r) => `${r.kind}/${String(r.metadata.name)}`)).toEqual([
      'PlatformWorkspace/platform-team',
    ]);
    const out = kubectl(
      'get',
      'platformworkspace',
      'platform-team',
      '-n',
      ns.name,
      '-o',
      'jsonpath={.spec.agents[*].name}',
    );
    expect(out.stdout.trim().split(' ')).toEqual(['planner', 'coder']);
  });

  const fixtures = readdirSync(INVALID).filter((f) => f.endsWith('.yaml'));
  it.each(fixtures)('rejects %s with its golden message', async (file) => {
    const goldenPath = join(INVALID, file.replace(/\.yaml$/, '.golden'));
    const message = await rejection(file);
    expect(message).not.toBe('accepted');
    if (UPDATE) writeFileSync(goldenPath, `${message}\n`);
    expect(existsSync(goldenPath), `missing golden ${goldenPath}`).toBe(true);
    expect(message).toBe(readFileSync(goldenPath, 'utf8').replace(/\n$/, ''));
  });

  it('has no golden file without its fixture', () => {
    const unused = readdirSync(INVALID)
      .filter((f) => f.endsWith('.golden'))
      .filter((f) => !fixtures.includes(f.replace(/\.golden$/, '.yaml')));
    expect(unused).toEqual([]);
  });
});
