// `kubectl kustomize <dir>`: what `kubectl apply -k` applies, patches included.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { repoRoot, type K8sObject } from './kustomize-tree.ts';

/** The overlays users apply, relative to config/. */
export const OVERLAYS = ['overlays/dev', 'overlays/production'] as const;

/** Builds config/<dir> and returns its YAML; throws with kubectl's message when the build fails. */
export function kustomizeBuild(dir: string): string {
  const kubectl = findBinary('kubectl');
  if (!kubectl) throw new Error('kubectl is not built (npm run control-plane:build)');
  const run = spawnSync(kubectl, ['kustomize', join(repoRoot, 'config', dir)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kubectl kustomize config/${dir}: ${run.stderr}`);
  return run.stdout;
}

export function parseObjects(yaml: string): K8sObject[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}
