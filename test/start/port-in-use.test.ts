// Bad input to `npm start`: a port it needs is taken. One clear line, exit
// code 2, and nothing started.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { nodeLeftovers } from '../../hack/node/leftovers.ts';
import { DEFAULT_PORTS } from '../../hack/system/roles.ts';

describe('npm start with a port in use', () => {
  it('says which port in one line and exits 2, starting nothing', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(DEFAULT_PORTS.api, '0.0.0.0', resolve));
    try {
      const env = { ...process.env };
      delete env.KUBECONFIG;
      const r = spawnSync('npm', ['start'], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 });
      expect(r.status).toBe(2);
      const ours = r.stderr.split('\n').filter((l) => l.startsWith('[start]'));
      expect(ours).toEqual([
        `[start] port ${DEFAULT_PORTS.api} (api) is in use: stop what holds it, or another npm start`,
      ]);
      expect(nodeLeftovers()).toEqual([]);
    } finally {
      holder.close();
    }
  });
});
