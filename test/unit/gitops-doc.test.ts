// docs/gitops.md is what users paste into argocd-cm and a Flux Kustomization:
// its Argo CD health check must cover every kind (each reports Ready) with one
// script, and its Ready table must list every kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ALL_KINDS } from '../../crds/index.ts';
import { repoRoot } from './kustomize-tree.ts';

const doc = readFileSync(join(repoRoot, 'docs', 'gitops.md'), 'utf8');
const yamlBlocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

function argocdCm(): Record<string, string> {
  for (const block of yamlBlocks) {
    for (const d of parseAllDocuments(block)) {
      const o = d.toJS() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> };
      if (o?.kind === 'ConfigMap' && o.metadata?.name === 'argocd-cm') return o.data ?? {};
    }
  }
  throw new Error('docs/gitops.md has no argocd-cm ConfigMap');
}

describe('docs/gitops.md', () => {
  it('registers the same Ready health check for every platform.io kind in argocd-cm', () => {
    const data = argocdCm();
    const prefix = 'resource.customizations.health.platform.io_';
    const kinds = Object.keys(data)
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length));
    expect(kinds.sort()).toEqual(ALL_KINDS.map((k) => k.kind).sort());
    const scripts = new Set(kinds.map((k) => data[`${prefix}${k}`]));
    expect(scripts.size).toBe(1);
    const script = [...scripts][0]!;
    expect(script).toContain('c.type == "Ready"');
    expect(script).toContain('s.observedGeneration < obj.metadata.generation');
  });

  it('says what Ready means for every kind, in one table', () => {
    const section = doc.slice(doc.indexOf('## Every kind reports `Ready`'), doc.indexOf('## Argo CD'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    const listed = rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
    expect(listed.sort()).toEqual(ALL_KINDS.map((k) => k.kind).sort());
  });

  it('names only platform.io kinds that exist in its Flux healthChecks', () => {
    const names = new Set(ALL_KINDS.map((k) => k.kind));
    const checked = [...doc.matchAll(/apiVersion: platform\.io\/v1alpha1, kind: (\w+)/g)].map((m) => m[1]!);
    expect(checked.length).toBeGreaterThan(0);
    for (const kind of checked) expect(names.has(kind), kind).toBe(true);
  });
});
