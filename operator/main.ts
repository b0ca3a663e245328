// The `platform` command: `platform run <role> [name]` for the long-running
// roles, and the user commands (docs/cli.md). Errors are one line on stderr
// with what to do, and an exit code from cli/errors.ts; a stack trace only
// with --verbose.
import { Command } from 'commander';
import { addAskCommand } from './ask-command.ts';
import { registerUserCommands } from './cli/commands.ts';
import { reportError } from './cli/report.ts';
import { FORMATS } from './cli/output.ts';
import { ConfigError } from '../base/config.ts';
import { createLifecycle } from '../base/lifecycle.ts';
import { createLogger } from '../base/log.ts';
import { PLANNED_ROLES, ROLES } from './roles.ts';

function parseFlagPairs(values: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new ConfigError([`--set ${JSON.stringify(v)}: expected name=value`]);
    flags[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return flags;
}

async function runRole(
  role: string,
  name: string | undefined,
  opts: { set: string[]; logLevel?: string },
): Promise<void> {
  const entry = ROLES[role];
  if (!entry) {
    const planned = (PLANNED_ROLES as readonly string[]).includes(role);
    throw new ConfigError([
      planned
        ? `role '${role}' is not part of this build yet; available roles: ${Object.keys(ROLES).join(', ')}`
        : `unknown role '${role}'; available roles: ${Object.keys(ROLES).join(', ')}`,
    ]);
  }
  const log = createLogger(name ? `${role}/${name}` : role, opts.logLevel ? { level: opts.logLevel } : {});
  const lifecycle = createLifecycle(log);
  const runner = await entry.load();
  await runner({ log, lifecycle, flags: parseFlagPairs(opts.set), env: process.env, name });
  await lifecycle.stopped;
}

export function buildProgram(): Command {
  const program = new Command('platform')
    .description('Governs AI agents running as Kubernetes pods.')
    .option('-o, --output <format>', `output format: ${FORMATS.join(' | ')}`, 'table')
    .option(
      '--server <url>',
      'the Verifier API (default: PLATFORM_SERVER, the config file, http://127.0.0.1:8000)',
    )
    .option('--verbose', 'print stack traces and more detail on errors')
    .exitOverride()
    .configureOutput({
      // One line: commander's message and where the usage is.
      outputError: (message, write) =>
        write(`platform: ${message.replace(/^error: /, '').trim()} (see --help)\n`),
    })
    .showSuggestionAfterError();
  program
    .command('run')
    .description(`run a long-running role: ${Object.keys(ROLES).join(', ')}`)
    .argument('<role>', 'operator | webhook | api | gateway | auditor | proxy | model | agent')
    .argument('[name]', 'auditor name, for `run auditor <name>`')
    .option('--set <name=value...>', 'override a setting (same names as the flags each role documents)', [])
    .option('--log-level <level>', 'trace | debug | info | warn | error')
    .action(runRole);
  addAskCommand(program);
  registerUserCommands(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
    process.exit(process.exitCode ?? 0);
  } catch (err) {
    process.exit(reportError(err, argv.includes('--verbose'), (s) => process.stderr.write(s)));
  }
}

await main(process.argv);
