// Reads a kustomize tree the way `kubectl apply -k` would see its resources
// (resources lists only; no patches), so tests can check config/ stays true
// without a kustomize binary.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [key: string]: unknown;
}

export function readKustomization(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir} has no kustomization.yaml`);
  const k = parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as { resources?: string[] };
  const out: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    if (!existsSync(path)) throw new Error(`${file}: resource ${entry} does not exist`);
    if (statSync(path).isDirectory()) out.push(...readKustomization(path));
    else out.push(...readManifest(path));
  }
  return out;
}

export function readManifest(path: string): K8sObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
