// `helm lint` and `helm template` of charts/agent-platform with the pinned helm
// (hack/build-helm.sh), for the tests that hold the chart to config/.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findHelm } from '../../hack/chart/source.ts';
import { repoRoot } from './kustomize-tree.ts';

export const CHART = join(repoRoot, 'charts', 'agent-platform');
export const RELEASE_NAMESPACE = 'platform-system';

export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmRun {
  const bin = findHelm();
  if (!bin) throw new Error('helm is not built: run bash hack/build-helm.sh (npm test does)');
  // A private home: no repositories, plugins or caches of the user's leak in.
  const home = join(repoRoot, 'node_modules', '.cache', 'helm-test');
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  return spawnSync(bin, args, { encoding: 'utf8', env });
}

/** `helm template` as a user installs it into platform-system, CRDs included; throws with helm's message. */
export function helmTemplate(valueFiles: string[], set: string[] = []): string {
  const args = ['template', 'platform', CHART, '--namespace', RELEASE_NAMESPACE, '--include-crds'];
  for (const f of valueFiles) args.push('-f', join(CHART, f));
  for (const s of set) args.push('--set', s);
  const run = helm(args);
  if (run.status !== 0) throw new Error(`helm ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}
