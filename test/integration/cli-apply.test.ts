// `platform apply` as a subprocess against the real apiserver with the CRDs
// installed: every sample applied (then again: all unchanged), a server dry
// run that writes nothing, --diff, a directory with one invalid file (nothing
// applied), a field-manager conflict, and bad input as one line each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { apiStatus, k8s } from '../../base/kube.ts';
import { ALL_KINDS } from '../../crds/index.ts';
import { freePort } from '../../hack/control-plane/control-plane.ts';
import { findBinary, REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { linesOf, runCli, type CliResult } from '../fixtures/cli/run-cli.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { acquireSamplesLock } from './samples-lock.ts';

const SAMPLES = join(REPO_ROOT, 'config/samples');
const HOME_NS = 'platform-org-acme';
const ns = useNamespace('cli-apply');
const dry = useNamespace('cli-apply-dry');
let release: (() => void) | undefined;

type Doc = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
const sampleDocs = (): Doc[] =>
  readdirSync(SAMPLES)
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(SAMPLES, f), 'utf8')).map((d) => d.toJS() as Doc));
const refOf = (d: Doc): string =>
  `${d.kind.toLowerCase()}${d.apiVersion.includes('/') ? `.${d.apiVersion.split('/')[0]}` : ''}/${d.metadata.name}`;

const apply = (...args: string[]): Promise<CliResult> =>
  runCli(['apply', '--kubeconfig', inject('kubeconfigPath'), ...args]);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);

type StoredAgent = { spec: { abilities: { soul: { identity: { name: string } } } } };

async function storedAgent(namespace: string, name: string): Promise<StoredAgent | undefined> {
  try {
    return (await custom().getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL.agent,
      namespace,
      name,
    })) as StoredAgent;
  } catch (err) {
    if (apiStatus(err) === 404) return undefined;
    throw err;
  }
}

async function namespacedCount(namespace: string): Promise<number> {
  let n = 0;
  for (const def of ALL_KINDS.filter((k) => k.scope === 'Namespaced')) {
    const list = (await custom().listNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: def.plural,
      namespace,
    })) as { items: unknown[] };
    n += list.items.length;
  }
  return n;
}

/** What the samples make outside this file's namespace, plus the org policy (it binds the whole cluster). */
function cleanupManifest(): string {
  const cluster = new Set(ALL_KINDS.filter((k) => k.scope === 'Cluster').map((k) => k.kind));
  return sampleDocs()
    .filter((d) => d.kind === 'Namespace' || cluster.has(d.kind) || d.metadata.name === 'org-baseline')
    .map((d) => (d.kind === 'AuditorPolicy' ? { ...d, metadata: { ...d.metadata, namespace: ns.name } } : d))
    .map((d) => JSON.stringify(d))
    .join('\n---\n');
}

beforeAll(async () => {
  release = await acquireSamplesLock();
  // Another file's clean-up may still be removing the org's home namespace.
  await eventually(
    async () => {
      const home = await core()
        .readNamespace({ name: HOME_NS })
        .catch((err: unknown) => (apiStatus(err) === 404 ? undefined : Promise.reject(err)));
      return home?.status?.phase === 'Terminating' ? undefined : true;
    },
    `namespace ${HOME_NS} not terminating`,
    120_000,
  );
}, 700_000);

afterAll(() => {
  try {
    const kubectl = findBinary('kubectl');
    if (!kubectl) throw new Error('kubectl is not built (npm run control-plane:build)');
    const args = ['--kubeconfig', inject('kubeconfigPath'), 'delete', '--ignore-not-found', '--wait=true'];
    spawnSync(kubectl, [...args, '--timeout=120s', '-f', '-'], {
      input: cleanupManifest(),
      encoding: 'utf8',
    });
  } finally {
    release?.();
  }
}, 180_000);

describe('platform apply', () => {
  it('applies every sample in kind order, then again: every object unchanged', async () => {
    const refs = sampleDocs().map(refOf);
    const first = await apply('-f', SAMPLES, '-n', ns.name);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const lines = linesOf(first.stdout);
    expect(lines.map((l) => l.split(' ')[0]).sort()).toEqual([...refs].sort());
    for (const line of lines) expect(line).toMatch(/^\S+ (created|configured|unchanged)$/);
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^namespace\/platform-org-acme /),
      expect.stringMatching(/^organization\.platform\.io\/acme /),
    ]);
    expect(lines.findIndex((l) => l.startsWith('platformworkspace.'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('platformagent.')),
    );
    expect(lines).toContain('platformagent.platform.io/release-bot created');
    const agent = await storedAgent(ns.name, 'release-bot');
    expect(agent?.spec.abilities.soul.identity.name).toBe('Release bot');

    const again = await apply('-f', SAMPLES, '-n', ns.name);
    expect([again.status, again.stderr]).toEqual([0, '']);
    expect(linesOf(again.stdout)).toEqual(lines.map((l) => `${l.split(' ')[0]} unchanged`));
  });

  it('--dry-run=server says what would happen and writes nothing', async () => {
    const r = await apply('-f', SAMPLES, '-n', dry.name, '--dry-run=server');
    expect([r.status, r.stderr]).toEqual([0, '']);
    const lines = linesOf(r.stdout);
    expect(lines).toHaveLength(sampleDocs().length);
    for (const line of lines) expect(line).toMatch(/ \(server dry run\)$/);
    expect(lines).toContain('platformagent.platform.io/release-bot created (server dry run)');
    expect(lines).toContain('organization.platform.io/acme unchanged (server dry run)');
    expect(await namespacedCount(dry.name)).toBe(0);

    const json = await apply(
      '-f',
      join(SAMPLES, 'agent-standalone.yaml'),
      '-n',
      dry.name,
      '--dry-run',
      '-o',
      'json',
    );
    expect(json.status).toBe(0);
    const list = JSON.parse(json.stdout) as { kind: string; items: Doc[] };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => [i.kind, i.metadata.name, i.metadata.namespace])).toEqual([
      ['PlatformAgent', 'release-bot', dry.name],
    ]);
    expect(await storedAgent(dry.name, 'release-bot')).toBeUndefined();
  });

  it('--diff shows how a changed object would change (exit 1) and nothing for an unchanged one (exit 0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-apply-diff-'));
    const changed = join(dir, 'agent.yaml');
    const text = readFileSync(join(SAMPLES, 'agent-standalone.yaml'), 'utf8');
    writeFileSync(changed, text.replace('Release bot', 'Release robot'));
    const r = await apply('-f', changed, '-n', ns.name, '--diff');
    expect([r.status, r.stderr]).toEqual([1, '']);
    expect(r.stdout).toContain('--- platformagent.platform.io/release-bot (live)\n');
    expect(r.stdout).toContain('+++ platformagent.platform.io/release-bot (after apply)\n');
    expect(r.stdout).toMatch(/^-\s+name: Release bot$/m);
    expect(r.stdout).toMatch(/^\+\s+name: Release robot$/m);
    expect(r.stdout).not.toMatch(/resourceVersion|managedFields|uid:/);
    expect((await storedAgent(ns.name, 'release-bot'))?.spec.abilities.soul.identity.name).toBe(
      'Release bot',
    );

    const same = await apply('-f', join(SAMPLES, 'agent-standalone.yaml'), '-n', ns.name, '--diff');
    expect([same.status, same.stdout, same.stderr]).toEqual([0, '', '']);
  });

  it('applies nothing from a directory holding one invalid file, and names each error at its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-apply-invalid-'));
    const agent = (name: string, role: string): string =>
      `apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: ${name}\nspec:\n  owners:\n    - subject: a@example.com\n      role: ${role}\n`;
    writeFileSync(join(dir, 'a-good.yaml'), agent('good-one', 'Owner'));
    writeFileSync(
      join(dir, 'b-config.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg-one\ndata: {a: b}\n',
    );
    writeFileSync(join(dir, 'c-bad.yaml'), `${agent('bad-one', 'Boss')}  colour: red\n`);
    const r = await apply('-f', dir, '-n', ns.name);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(linesOf(r.stderr)).toEqual([
      `${join(dir, 'c-bad.yaml')}:8:13: spec.owners[0].role: not an allowed value (expected one of Owner, Editor, Viewer, found "Boss")`,
      `${join(dir, 'c-bad.yaml')}:9:3: spec.colour: unknown field (expected no unknown field)`,
    ]);
    expect(await storedAgent(ns.name, 'good-one')).toBeUndefined();
    const cm = await core()
      .readNamespacedConfigMap({ namespace: ns.name, name: 'cfg-one' })
      .catch((err: unknown) => apiStatus(err));
    expect(cm).toBe(404);
  });

  it('names the field manager of a conflicting field and applies with --force-conflicts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-apply-conflict-'));
    const other = join(dir, 'agent.yaml');
    writeFileSync(
      other,
      readFileSync(join(SAMPLES, 'agent-standalone.yaml'), 'utf8').replace('Release bot', 'Shipper'),
    );
    const took = await apply(
      '-f',
      other,
      '-n',
      ns.name,
      '--field-manager',
      'release-team',
      '--force-conflicts',
    );
    expect([took.status, took.stdout]).toEqual([0, 'platformagent.platform.io/release-bot configured\n']);

    const r = await apply('-f', join(SAMPLES, 'agent-standalone.yaml'), '-n', ns.name);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(linesOf(r.stderr)).toEqual([
      'platform: platformagent.platform.io/release-bot: conflict: .spec.abilities.soul.identity.name is owned by field manager "release-team"; re-run with --force-conflicts to take these fields over, or leave them out of your file',
    ]);
    expect((await storedAgent(ns.name, 'release-bot'))?.spec.abilities.soul.identity.name).toBe('Shipper');

    const forced = await apply(
      '-f',
      join(SAMPLES, 'agent-standalone.yaml'),
      '-n',
      ns.name,
      '--force-conflicts',
    );
    expect([forced.status, forced.stdout, forced.stderr]).toEqual([
      0,
      'platformagent.platform.io/release-bot configured\n',
      '',
    ]);
  });
});

describe('platform apply on bad input: one line and an exit code', () => {
  const oneLine = (r: CliResult, status: number, pattern: RegExp): void => {
    expect(r.status).toBe(status);
    expect(r.stdout).toBe('');
    expect(linesOf(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };

  it('a missing file: exit 2', async () => {
    oneLine(
      await apply('-f', join(SAMPLES, 'nope.yaml')),
      2,
      /cannot read .*nope\.yaml: no such file or directory/,
    );
  });

  it('an unknown flag: exit 2', async () => {
    oneLine(await apply('-f', SAMPLES, '--prune'), 2, /^platform: unknown option '--prune'/);
  });

  it('invalid YAML: exit 2 with file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-apply-yaml-'));
    writeFileSync(join(dir, 'broken.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n');
    oneLine(await apply('-f', join(dir, 'broken.yaml')), 2, /^.*broken\.yaml:\d+:\d+: malformed YAML: /);
  });

  it('an unreachable cluster: exit 4, after the input was found valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-apply-closed-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const port = await freePort();
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:' +
          port +
          '", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    );
    const r = await runCli(['apply', '--kubeconfig', kubeconfig, '-f', SAMPLES]);
    oneLine(
      r,
      4,
      new RegExp(`^platform: cannot reach the cluster at https://127\\.0\\.0\\.1:${port}: ECONNREFUSED`),
    );
  });
});
