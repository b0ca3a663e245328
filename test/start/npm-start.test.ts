// The README's run command, as a new user runs it: `npm start` in a
// subprocess (leader election on, no KUBECONFIG), waited for until it says it
// is ready; every role keeps answering its readiness probe for a while and the
// node is Ready; SIGINT stops it with exit 0 and nothing is left on the host.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { findBinary, REPO_ROOT } from '../../hack/control-plane/paths.ts';
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

async function probe(url: string): Promise<number> {
  return fetch(url, { signal: AbortSignal.timeout(3000) })
    .then((r) => r.status)
    .catch(() => 0);
}

describe('npm start, as the README says', () => {
  const run = startNpm();
  afterAll(() => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
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
      `http://127.0.0.1:${DEFAULT_PORTS.api}/readyz`,
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

  it('stops on SIGINT with exit 0 and leaves nothing behind', async () => {
    const exited = new Promise<number | null>((resolve) => run.child.once('exit', (code) => resolve(code)));
    run.child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(run.output()).toMatch(/\[start\] stopped/);
    expect(nodeLeftovers()).toEqual([]);
  });
});
