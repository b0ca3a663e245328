// Reads the chart's sources from a tree: `kubectl kustomize` of config/default
// and of the production overlay, the project version; and finds the helm
// binary hack/build-helm.sh builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { cacheRoot, findBinary, HACK_DIR } from '../control-plane/paths.ts';
import type { K8sObject } from './knobs.ts';
import type { ChartSources } from './render.ts';

export function parseObjects(yaml: string): K8sObject[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** `kubectl kustomize <root>/config/<dir>` as objects; throws with kubectl's message. */
export function kustomize(root: string, dir: string): K8sObject[] {
  const kubectl = findBinary('kubectl');
  if (!kubectl)
    throw new Error('kubectl is not built (npm run control-plane:build): the chart is built from config/');
  const run = spawnSync(kubectl, ['kustomize', join(root, 'config', dir)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kubectl kustomize config/${dir}: ${run.stderr}`);
  return parseObjects(run.stdout);
}

export const objectKey = (o: K8sObject): string =>
  `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The chart's sources in `root`; `crds` are the generated CRD files (name → YAML). */
export function readChartSources(root: string, crds: Record<string, string>): ChartSources {
  const base = kustomize(root, 'default');
  const keys = new Set(base.map(objectKey));
  const productionExtras = kustomize(root, 'overlays/production').filter((o) => !keys.has(objectKey(o)));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { base, productionExtras, crds, version: pkg.version };
}

export function helmVersion(): string {
  const m = /^HELM_VERSION=(\S+)$/m.exec(readFileSync(join(HACK_DIR, 'versions.env'), 'utf8'));
  if (!m?.[1]) throw new Error('hack/versions.env does not define HELM_VERSION');
  return m[1];
}

/** The pinned helm in the cache (hack/build-helm.sh), else one on PATH; undefined when neither. */
export function findHelm(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cached = join(cacheRoot(env), `helm-${helmVersion()}`, 'helm');
  if (existsSync(cached)) return cached;
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'helm'))) return join(dir, 'helm');
  }
  return undefined;
}
