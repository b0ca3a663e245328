// Every shell script under hack/ is shellcheck-clean (every severity, sourced
// files followed). shellcheck is Debian's package, installed by hack/prereqs.sh.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { repoRoot } from './kustomize-tree.ts';

function shellcheck(files: string[]): { status: number | null; stdout: string } {
  const bin = findBinary('shellcheck');
  if (!bin)
    throw new Error('shellcheck is not installed: run bash hack/prereqs.sh (Debian package shellcheck)');
  // -x follows `source`; SCRIPTDIR resolves `# shellcheck source=versions.env` beside each script.
  return spawnSync(bin, ['-x', '--source-path=SCRIPTDIR', ...files], { cwd: repoRoot, encoding: 'utf8' });
}

const scripts = readdirSync(join(repoRoot, 'hack'), { recursive: true, withFileTypes: true })
  .filter((f) => f.isFile() && f.name.endsWith('.sh'))
  .map((f) => relative(repoRoot, join(f.parentPath, f.name)))
  .sort();

describe('hack/*.sh', () => {
  it('includes the kind scripts and the build scripts', () => {
    expect(scripts).toEqual(
      expect.arrayContaining([
        'hack/kind-up.sh',
        'hack/kind-e2e.sh',
        'hack/prereqs.sh',
        'hack/build-control-plane.sh',
        'hack/build-helm.sh',
      ]),
    );
  });

  it.each(scripts)('%s is shellcheck-clean', (script) => {
    const run = shellcheck([script]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('would report a script that is not (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shellcheck-'));
    try {
      const bad = join(dir, 'bad.sh');
      writeFileSync(bad, '#!/usr/bin/env bash\nrm -rf $1/cache\n');
      const run = shellcheck([bad]);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toContain('SC2086');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
