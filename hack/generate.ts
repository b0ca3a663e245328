// Writes every generated file from the single sources of truth: crds/kinds
// (CRDs, types) and config/ (the Helm chart, built with `kubectl kustomize`).
// `--check` writes nothing and fails when a generated file is stale, missing
// or no longer produced, so CI catches a schema changed without regeneration.
// PLATFORM_GENERATE_ROOT points the command at another tree (used by its test).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chartFiles, crdFilesOf } from './chart/render.ts';
import { readChartSources } from './chart/source.ts';
import { readGenerated } from './codegen/disk.ts';
import { generatedFiles, generatedProblems } from './codegen/index.ts';
import { REPO_ROOT } from './control-plane/paths.ts';

function write(root: string, files: Record<string, string>, onDisk: Map<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    if (onDisk.get(path) === content) continue;
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  for (const path of onDisk.keys()) if (!(path in files)) rmSync(join(root, path));
}

function main(): number {
  const root = process.env.PLATFORM_GENERATE_ROOT ?? REPO_ROOT;
  const check = process.argv.includes('--check');
  const generated = generatedFiles();
  const files = { ...generated, ...chartFiles(readChartSources(root, crdFilesOf(generated))) };
  const onDisk = readGenerated(root);
  const count = Object.keys(files).length;
  if (!check) {
    write(root, files, onDisk);
    console.log(`wrote ${count} generated files`);
    return 0;
  }
  const problems = generatedProblems(files, onDisk);
  if (problems.length > 0) {
    console.error(`generated files are out of date (run \`npm run generate\`):\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`generated files up to date (${count})`);
  return 0;
}

process.exitCode = main();
