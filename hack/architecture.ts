// Redraws the "Folders and their imports" section of docs/architecture.md from
// the source tree's own imports. `--check` writes nothing and fails when the
// section is stale, a folder has no description or the folders import in a circle.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './control-plane/paths.ts';
import { buildGraph, graphProblems, renderSection, withSection } from './architecture/graph.ts';

const DOC = 'docs/architecture.md';

function sourceFiles(root: string): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = new Map<string, string>();
  for (const path of listed.split('\n').filter(Boolean)) {
    try {
      files.set(path, readFileSync(join(root, path), 'utf8'));
    } catch {
      // Listed but deleted in the working tree: not part of the source.
    }
  }
  return files;
}

function main(): number {
  const root = process.env.PLATFORM_GENERATE_ROOT ?? REPO_ROOT;
  const graph = buildGraph(sourceFiles(root));
  const problems = graphProblems(graph);
  if (problems.length > 0) {
    console.error(`architecture: ${problems.join('\n')}`);
    return 1;
  }
  const current = readFileSync(join(root, DOC), 'utf8');
  const wanted = withSection(current, renderSection(graph));
  if (!process.argv.includes('--check')) {
    if (wanted !== current) writeFileSync(join(root, DOC), wanted);
    console.log(`${DOC}: ${graph.nodes.length} folders, no import cycle`);
    return 0;
  }
  if (wanted !== current) {
    console.error(`${DOC} is out of date with the imports (run \`npm run generate\`)`);
    return 1;
  }
  console.log(`${DOC} up to date (${graph.nodes.length} folders, no import cycle)`);
  return 0;
}

process.exitCode = main();
