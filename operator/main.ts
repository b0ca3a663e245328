// The `platform` command: `platform run <role> [name]` for the long-running
// roles; user commands (apply, auditor, model, policy) join here.
import { Command, CommanderError } from 'commander';
import { addAskCommand } from './ask-command.ts';
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
    .exitOverride()
    .showHelpAfterError();
  program
    .command('run')
    .description(`run a long-running role: ${Object.keys(ROLES).join(', ')}`)
    .argument('<role>', 'operator | webhook | api | gateway | auditor | proxy | model | agent')
    .argument('[name]', 'auditor name, for `run auditor <name>`')
    .option('--set <name=value...>', 'override a setting (same names as the flags each role documents)', [])
    .option('--log-level <level>', 'trace | debug | info | warn | error')
    .action(runRole);
  addAskCommand(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
    process.exit(process.exitCode ?? 0);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    if (err instanceof ConfigError) {
      process.stderr.write(`platform: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`platform: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  }
}

await main(process.argv);
