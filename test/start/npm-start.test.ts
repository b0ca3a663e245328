// The README's run command, as a new user runs it: `npm start` in a
// subprocess (leader election on, no KUBECONFIG), waited for until it says it
// is ready; every role keeps answering its readiness probe for a while and the
// node is Ready; SIGINT stops it with exit 0 and nothing is left on the host.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { findBinary, REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { alive } from '../../hack/control-plane/process-group.ts';
import { nodeLeftovers } from '../../hack/node/leftovers.ts';
import { DEFAULT_PORTS } from '../../hack/system/roles.ts';

const READY_LINE = /\[start\] ready in ([\d.]+) s/;

function startNpm(): { child: ChildProcess; output: () => string; ready: Promise<number> } {
  const env = { ...process.env };
  delete env.KUBECONFIG;
  delete env.PLATFORM_TEST_KUBECONFIG;
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  let text = '';
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const m = READY_LINE.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`npm start exited (${code}) before ready:\n${text.slice(-3000)}`)),
    );
  });
  return { child, output: () => text, ready };
}

/** The node process running operator/start.ts from this checkout, with its process group. */
function startProcess(): { pid: number } | undefined {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('operator/start.ts') || !cmd.includes('loader')) continue;
      if (readlinkSync(`/proc/${entry}/cwd`) !== REPO_ROOT) continue;
      return { pid: Number(entry) };
    } catch {
      /* gone meanwhile */
    }
  }
  return undefined;
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return Number(readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function probe(url: string): Promise<number> {
  return fetch(url, { signal: AbortSignal.timeout(3000) })
    .then((r) => r.status)
    .catch(() => 0);
}

describe('npm start, as the README says', () => {
  const run = startNpm();
  afterAll(() => {
    const start = startProcess();
    if (start) process.kill(start.pid, 'SIGKILL');
  });

  it('reaches ready with a Ready node', async () => {
    const seconds = await run.ready;
    console.log(`npm start: ready in ${seconds} s`);
    const kubectl = findBinary('kubectl');
    expect(kubectl).toBeDefined();
    const nodes = spawnSync(kubectl!, ['--kubeconfig', `${REPO_ROOT}/.platform/kubeconfig`, 'get', 'nodes'], {
      encoding: 'utf8',
    });
    expect(nodes.stdout).toMatch(/platform-node\s+Ready/);
    expect(run.output()).toMatch(/a governed call/);
  });

  it('keeps every role up and ready for a while', async () => {
    const urls = [
      `http://127.0.0.1:${DEFAULT_PORTS.operatorOps}/readyz`,
      `http://127.0.0.1:${DEFAULT_PORTS.webhookOps}/readyz`,
      `http://127.0.0.1:${DEFAULT_PORTS.apiOps}/readyz`,
      `http://10.88.0.1:${DEFAULT_PORTS.model}/readyz`,
    ];
    for (let round = 0; round < 10; round++) {
      const statuses = await Promise.all(urls.map(probe));
      expect(statuses, `round ${round}: ${urls.join(', ')}`).toEqual([200, 200, 200, 200]);
      expect(run.child.exitCode).toBeNull();
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(run.output()).not.toMatch(/exited \(/);
  });

  it('stops on SIGINT and leaves nothing behind', async () => {
    // Ctrl-C: SIGINT to start.ts and the roles it runs, as a terminal delivers
    // it to its foreground group (npm and tsx only pass it on). Not to the
    // group itself: under a test runner it may be the runner's own.
    const start = startProcess();
    expect(start, 'the start.ts process').toBeDefined();
    for (const pid of [start!.pid, ...childrenOf(start!.pid)]) process.kill(pid, 'SIGINT');
    // The same signal again, as npm's and tsx's relays deliver it: it must not cut the clean-up short.
    await new Promise((r) => setTimeout(r, 300));
    if (alive(start!.pid)) process.kill(start!.pid, 'SIGINT');
    const deadline = Date.now() + 90_000;
    while (alive(start!.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(alive(start!.pid), 'start.ts still running 90 s after SIGINT').toBe(false);
    expect(run.output()).toMatch(/\[start\] stopped/);
    expect(run.output()).not.toMatch(/\[start\] role \S+ exited/);
    expect(nodeLeftovers()).toEqual([]);
  });
});
