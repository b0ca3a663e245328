// The local control plane's own lifecycle: it starts, answers as the pinned
// release, stops without leaving processes or files behind, and cleans up
// after a run that was killed outright.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startControlPlane } from '../../hack/control-plane/control-plane.ts';
import { kubernetesVersion } from '../../hack/control-plane/paths.ts';
import { loadKubeConfig, serverVersion } from '../../base/kube.ts';

function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(dir)) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

describe('local control plane', () => {
  it('starts the pinned release and stops without leaving processes or files', async () => {
    const plane = await startControlPlane();
    try {
      expect(await serverVersion(loadKubeConfig(plane.kubeconfigPath))).toBe(`v${kubernetesVersion()}`);
      expect(processesUsing(plane.dir).length).toBeGreaterThanOrEqual(3);
    } finally {
      await plane.stop();
    }
    expect(existsSync(plane.dir)).toBe(false);
    expect(processesUsing(plane.dir)).toEqual([]);
  });

  it('reaps the processes of a run that was killed with SIGKILL', async () => {
    const script = join(import.meta.dirname, '..', '..', '.scratch-killed-run.ts');
    writeFileSync(
      script,
      `import { startControlPlane } from './hack/control-plane/control-plane.ts';
       const p = await startControlPlane({ controllerManager: false });
       process.stdout.write(p.dir + '\\n');
       setInterval(() => undefined, 1000);`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: join(import.meta.dirname, '..', '..'),
    });
    const orphanDir = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`child exited early: ${code}`)));
    });
    // kill() only sends the signal: wait until the owner is really gone, or
    // the next start sees a live owner and (rightly) leaves its run alone.
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    rmSync(script, { force: true });
    expect(processesUsing(orphanDir).length).toBeGreaterThan(0);

    const next = await startControlPlane({ controllerManager: false });
    await next.stop();
    expect(processesUsing(orphanDir)).toEqual([]);
    expect(existsSync(orphanDir)).toBe(false);
  });
});
