// `platform auditor init <name>` (writes a new auditor project) and
// `platform auditor dev [dir]` (runs one, reloading on change).
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort, localProject, startLocal, waitListening } from './auditor-local.ts';
import { auditorNameProblem, scaffoldFiles } from './auditor-template.ts';
import type { CliContext } from './context.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { render } from './output.ts';

/** The root of the platform checkout this CLI runs from (where package.json is). */
export function platformRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  // operator/cli/ in the sources, dist/operator/cli/ when compiled.
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'auditors'))) {
    const up = dirname(dir);
    if (up === dir) throw new CliError('cannot find the platform checkout this CLI runs from', EXIT.failed);
    dir = up;
  }
  return dir;
}

/** The SDK sources must be there: a project imports them (decision 195). */
function sdkRoot(flag: string | undefined): string {
  const root = resolve(flag ?? platformRoot());
  if (!existsSync(join(root, 'auditors', 'sdk', 'serve.ts')))
    throw usageError(
      `${root} holds no auditor SDK sources (auditors/sdk/serve.ts)`,
      'run init from a platform checkout, or give one with --sdk <dir>',
    );
  return root;
}

function refuseNonEmpty(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw usageError(`${dir} exists and is not a directory`);
  if (readdirSync(dir).length > 0)
    throw usageError(
      `${dir} is not empty; nothing was written`,
      'choose a new or empty directory with --dir',
    );
}

export async function initCommand(
  ctx: CliContext,
  name: string,
  flags: { dir?: string; sdk?: string },
): Promise<number> {
  const problem = auditorNameProblem(name);
  if (problem) throw usageError(problem);
  const dir = resolve(flags.dir ?? name);
  refuseNonEmpty(dir);
  const files = scaffoldFiles({ name, platformDir: sdkRoot(flags.sdk) });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const summary = { auditor_id: name, dir, files: Object.keys(files) };
  ctx.out(
    ctx.format === 'table'
      ? [
          `Created auditor ${name} in ${dir}:`,
          ...Object.keys(files).map((f) => `  ${f}`),
          'Next:',
          `  cd ${dir} && npm install`,
          '  platform auditor dev .     # serves it, reloading on change',
          '  platform auditor test .    # the conformance suite',
        ].join('\n')
      : render(ctx.format, summary, { rows: [], columns: [] }),
  );
  return EXIT.ok;
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw usageError(`invalid --port '${value}'`, 'use 0–65535 (0: a free one)');
  return port;
}

export interface DevFlags {
  port?: string;
  gateway?: string;
  watch?: boolean;
}

/** Runs the project until SIGINT or SIGTERM (forwarded to it); answers its exit code. */
export async function devCommand(
  ctx: CliContext,
  dirArg: string | undefined,
  flags: DevFlags,
): Promise<number> {
  const project = localProject(dirArg ?? '.');
  const port = portOf(flags.port) || (await freeLoopbackPort());
  if (flags.gateway !== undefined && !/^https?:\/\/\S+$/.test(flags.gateway))
    throw usageError(`invalid --gateway '${flags.gateway}'`, 'use http(s)://host:port');
  const local = startLocal(project, {
    port,
    gatewayUrl: flags.gateway,
    watch: flags.watch !== false,
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals): void => void local.child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  try {
    await waitListening(local, 60_000);
    ctx.note(
      `auditor listening at ${local.url}${flags.watch === false ? '' : ' (reloads on change)'}; Ctrl-C stops it`,
    );
    ctx.out(local.url);
    const code = await local.exited;
    return code === 0 || code === null ? EXIT.ok : EXIT.failed;
  } catch (err) {
    await local.stop();
    throw err;
  } finally {
    process.off('SIGINT', forward).off('SIGTERM', forward);
  }
}
