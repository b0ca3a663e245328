import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../../crds/index.ts';
import type { KindDefinition } from '../../crds/kit.ts';
import { REPO_ROOT } from '../control-plane/paths.ts';
import { readGenerated } from './disk.ts';
import { generatedFiles, generatedProblems } from './index.ts';
import { schemaToTs } from './types.ts';

function withExtraSpecField(kinds: readonly KindDefinition[]): KindDefinition[] {
  return kinds.map((k) =>
    k.kind !== 'PlatformAgent'
      ? k
      : {
          ...k,
          spec: {
            ...k.spec,
            properties: { ...(k.spec.properties as object), nickname: { type: 'string' } },
          },
        },
  );
}

/** The files generated from the kind schemas (the chart's, from config/, are hack/chart's). */
const schemaFilesOnDisk = (): Map<string, string> =>
  new Map([...readGenerated(REPO_ROOT)].filter(([path]) => path.startsWith('crds/generated/')));

describe('generated files', () => {
  it('are up to date with the kind schemas', () => {
    expect(generatedProblems(generatedFiles(), schemaFilesOnDisk())).toEqual([]);
  });

  it('are reported stale when a schema changes without regeneration', () => {
    const problems = generatedProblems(generatedFiles(withExtraSpecField(ALL_KINDS)), schemaFilesOnDisk());
    expect(problems).toEqual([
      'stale: crds/generated/platformagents.platform.io.yaml',
      'stale: crds/generated/types.ts',
    ]);
  });

  it('reports missing and orphaned files', () => {
    const onDisk = new Map([['crds/generated/old.yaml', 'x']]);
    const problems = generatedProblems({ 'crds/generated/new.yaml': 'y' }, onDisk);
    expect(problems).toEqual([
      'missing: crds/generated/new.yaml',
      'no longer generated: crds/generated/old.yaml',
    ]);
  });

  it('makes `npm run check:generated` exit non-zero on a stale tree', () => {
    const root = mkdtempSync(join(tmpdir(), 'gen-check-'));
    try {
      // The chart is generated from config/ (kustomize), which reads crds/generated; and package.json's version.
      for (const path of ['crds/generated', 'config', 'charts', 'package.json'])
        cpSync(join(REPO_ROOT, path), join(root, path), { recursive: true });
      const run = (): ReturnType<typeof spawnSync> =>
        spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'hack/generate.ts'), '--check'], {
          env: { ...process.env, PLATFORM_GENERATE_ROOT: root },
          encoding: 'utf8',
        });
      expect(run().status).toBe(0);
      writeFileSync(join(root, 'crds/generated/platformagents.platform.io.yaml'), '# edited by hand\n');
      const stale = run();
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('stale: crds/generated/platformagents.platform.io.yaml');
      // A chart left behind config/: the base's operator replicas changed without regeneration.
      writeFileSync(
        join(root, 'crds/generated/platformagents.platform.io.yaml'),
        generatedFiles()['crds/generated/platformagents.platform.io.yaml']!,
      );
      const operator = join(root, 'config/manager/operator.yaml');
      writeFileSync(operator, readFileSync(operator, 'utf8').replace('replicas: 2', 'replicas: 3'));
      const behind = run();
      expect(behind.status).toBe(1);
      expect(behind.stderr).toContain('stale: charts/agent-platform/values.yaml');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('schemaToTs', () => {
  it('renders enums as unions, maps as records and optional fields with ?', () => {
    const ts = schemaToTs({
      type: 'object',
      required: ['role'],
      properties: {
        role: { type: 'string', enum: ['Owner', 'Viewer'] },
        settings: { type: 'object', additionalProperties: { type: 'number' } },
        any: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    expect(ts).toBe(
      '{\n  role: "Owner" | "Viewer";\n  settings?: Record<string, number>;\n  any?: unknown;\n}',
    );
  });
});
