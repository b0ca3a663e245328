// What every user command gets: the global flags (-o, --server, --verbose),
// the configuration file, a Verifier client, and stdout. Commands return their
// exit code; `action` wires that to commander.
import type { Command } from 'commander';
import { ApiClient } from './client.ts';
import { configPath, readConfig, resolveTarget, type CliConfig, type ResolvedTarget } from './config.ts';
import { parseFormat, type OutputFormat } from './output.ts';

export interface GlobalFlags {
  output?: string;
  server?: string;
  verbose?: boolean;
}

export interface CliContext {
  format: OutputFormat;
  verbose: boolean;
  env: Record<string, string | undefined>;
  configPath: string;
  config: () => CliConfig;
  target: () => ResolvedTarget;
  client: () => ApiClient;
  out: (text: string) => void;
  /** Progress and warnings go to stderr so stdout stays parseable. */
  note: (text: string) => void;
}

export function contextOf(
  flags: GlobalFlags,
  env: Record<string, string | undefined> = process.env,
): CliContext {
  const path = configPath(env);
  let config: CliConfig | undefined;
  const loadConfig = (): CliConfig => (config ??= readConfig(path));
  const target = (): ResolvedTarget => resolveTarget({ server: flags.server }, env, loadConfig());
  return {
    format: parseFormat(flags.output),
    verbose: flags.verbose === true,
    env,
    configPath: path,
    config: loadConfig,
    target,
    client: () => new ApiClient(target()),
    out: (text) => void process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`),
    note: (text) => void process.stderr.write(`${text}\n`),
  };
}

let pipeWatched = false;

/** A reader that closed early (`platform … | head`) ends a user command quietly, as SIGPIPE would. */
function endQuietlyOnClosedPipe(): void {
  if (pipeWatched) return;
  pipeWatched = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

/**
 * Wraps a command's handler: builds its context from the flags of the command
 * and its parents, runs it and sets the process's exit code from its answer.
 */
export function action<A extends unknown[]>(
  run: (ctx: CliContext, ...args: A) => Promise<number>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    endQuietlyOnClosedPipe();
    const cmd = args[args.length - 1] as Command;
    const ctx = contextOf(cmd.optsWithGlobals<GlobalFlags>());
    process.exitCode = await run(ctx, ...(args.slice(0, -1) as A));
  };
}
