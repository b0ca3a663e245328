// Runs a local auditor project (what `auditor init` made, or any project whose
// entry point serves the auditor contract) as a child process: its
// TypeScript through tsx, on a loopback port, registration with a gateway off
// unless one is given. `auditor test <dir>` and `auditor dev` use it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { CliError, EXIT, usageError } from './errors.ts';

export interface LocalProject {
  dir: string;
  /** The entry point, relative to `dir` (package.json `main`, else src/main.ts). */
  entry: string;
}

/** The project's package.json (`{}` when it has none). */
function packageOf(dir: string): { main?: unknown; dependencies?: Record<string, string> } {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { main?: unknown };
  } catch {
    throw usageError(`${path} is not valid JSON`);
  }
}

/** The project in `dir`, checked: a directory with an entry point and its dependencies installed. */
export function localProject(dirArg: string): LocalProject {
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw usageError(
      `${dirArg} is neither a URL nor a directory`,
      'give http(s)://host:port or a project dir',
    );
  const pkg = packageOf(dir);
  const entry = typeof pkg.main === 'string' && pkg.main !== '' ? pkg.main : 'src/main.ts';
  if (!existsSync(join(dir, entry)))
    throw usageError(`${join(dir, entry)} does not exist`, 'set "main" in package.json to the entry point');
  if (Object.keys(pkg.dependencies ?? {}).length > 0 && !existsSync(join(dir, 'node_modules')))
    throw usageError(`${dir} has no node_modules`, `run \`npm install\` in ${dir} first`);
  return { dir, entry };
}

/** Where this CLI's tsx lives: its ESM loader (for --import) and its command (for watch). */
export function tsxPaths(): { loader: string; cli: string } {
  const require = createRequire(import.meta.url);
  try {
    const root = dirname(require.resolve('tsx/package.json'));
    return { loader: join(root, 'dist', 'loader.mjs'), cli: join(root, 'dist', 'cli.mjs') };
  } catch {
    throw new CliError(
      'tsx is not installed with this platform CLI',
      EXIT.usage,
      'run the CLI from a platform checkout after `npm ci`',
    );
  }
}

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  return typeof address === 'object' && address ? address.port : 0;
}

export interface RunOptions {
  port: number;
  /** Register with this gateway; none: registration off. */
  gatewayUrl?: string | undefined;
  /** Reload on change (tsx watch) instead of one run. */
  watch?: boolean;
  /** Where the child's output goes: inherited (dev) or kept for an error line (test). */
  stdio: 'inherit' | 'pipe';
}

/** The environment of the child: the caller's, plus what a local run needs. */
export function childEnv(parent: NodeJS.ProcessEnv, o: Pick<RunOptions, 'port' | 'gatewayUrl'>) {
  return {
    ...parent,
    PORT: String(o.port),
    PLATFORM_AUDITOR_HOST: parent.PLATFORM_AUDITOR_HOST ?? '127.0.0.1',
    TEE_PROVIDER: parent.TEE_PROVIDER ?? 'MOCK',
    // Required by the SDK; unused while registration is off.
    PLATFORM_GATEWAY_URL: o.gatewayUrl ?? parent.PLATFORM_GATEWAY_URL ?? 'http://127.0.0.1:8099',
    PLATFORM_AUDITOR_REGISTER: o.gatewayUrl ? 'true' : 'false',
  };
}

export interface LocalAuditor {
  url: string;
  child: ChildProcess;
  /** The last lines the child wrote (piped runs only). */
  output: () => string;
  /** Resolves with the exit code once it ended. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export function startLocal(project: LocalProject, o: RunOptions): LocalAuditor {
  const tsx = tsxPaths();
  const args = o.watch
    ? [tsx.cli, 'watch', '--clear-screen=false', project.entry]
    : ['--import', tsx.loader, project.entry];
  const child = spawn(process.execPath, args, {
    cwd: project.dir,
    env: childEnv(process.env, o),
    stdio: o.stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer): void => void (out = (out + c.toString()).slice(-8192));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    url: `http://127.0.0.1:${o.port}`,
    child,
    output: () => out,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The last non-empty line of a child's output, for an error message. */
export const lastLine = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1) ?? '';

/** Waits until `url/health` answers at all, or fails naming why the child ended. */
export async function waitListening(local: LocalAuditor, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let ended = false;
  void local.exited.then(() => (ended = true));
  while (Date.now() < until) {
    if (ended) {
      throw new CliError(
        `the auditor exited (code ${local.child.exitCode ?? local.child.signalCode}) before it listened: ${lastLine(local.output()) || 'no output'}`,
        EXIT.failed,
      );
    }
    const answered = await fetch(`${local.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new CliError(`the auditor did not listen on ${local.url} within ${timeoutMs} ms`, EXIT.failed);
}
