// Reads the generated files of a tree, for the generator and its check.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const GENERATED_DIRS = ['crds/generated', 'charts/agent-platform'];

/** Every file under the generated directories of `root`, by repo-relative path. */
export function readGenerated(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of GENERATED_DIRS) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const full = join(f.parentPath, f.name);
      out.set(relative(root, full), readFileSync(full, 'utf8'));
    }
  }
  return out;
}
