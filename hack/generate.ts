// Writes every generated file from the single sources of truth in crds/kinds.
// `--check` writes nothing and fails when a generated file is stale, missing
// or no longer produced, so CI catches a schema changed without regeneration.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { generatedFiles } from './codegen/index.ts';
import { REPO_ROOT } from './control-plane/paths.ts';

const GENERATED_DIRS = ['crds/generated'];

function existingGenerated(): string[] {
  const out: string[] = [];
  for (const dir of GENERATED_DIRS) {
    const abs = join(REPO_ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (f.isFile()) out.push(relative(REPO_ROOT, join(f.parentPath, f.name)));
    }
  }
  return out;
}

function main(): number {
  const check = process.argv.includes('--check');
  const files = generatedFiles();
  const problems: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const abs = join(REPO_ROOT, path);
    const current = existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
    if (current === content) continue;
    if (check) problems.push(`${current === undefined ? 'missing' : 'stale'}: ${path}`);
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  }
  for (const path of existingGenerated()) {
    if (path in files) continue;
    if (check) problems.push(`no longer generated: ${path}`);
    else rmSync(join(REPO_ROOT, path));
  }
  if (problems.length > 0) {
    console.error(`generated files are out of date (run \`npm run generate\`):\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(check ? `generated files up to date (${Object.keys(files).length})` : `wrote ${Object.keys(files).length} generated files`);
  return 0;
}

process.exitCode = main();
