// `platform apply -f <file|dir|->`: the command's flags. Its work is in
// apply-command.ts, loaded only when apply runs: the kube client and the
// resource validators it needs take most of a second to load, which every
// other command would pay.
import { Option, type Command } from 'commander';
import { action } from './context.ts';
import { CliError, EXIT } from './errors.ts';
import type { ApplyFlags } from './apply-command.ts';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function checkFieldManager(value: string): string {
  if (value === '' || value.length > 128)
    throw new CliError('--field-manager must be 1 to 128 characters', EXIT.usage);
  return value;
}

export function addApplyCommands(program: Command): void {
  program
    .command('apply')
    .description(
      'apply definition files and platform resources with server-side apply (validated whole first)',
    )
    .option(
      '-f, --filename <file|dir|->',
      'a file, a directory (its .yaml, .yml, .json files) or - for stdin; repeatable',
      collect,
      [],
    )
    .option('-R, --recursive', 'with a directory, its subdirectories too')
    .addOption(
      new Option(
        '--dry-run [mode]',
        'server: ask the apiserver what would happen, write nothing; none: apply',
      ).preset('server'),
    )
    .option('--diff', 'show how each live object would change (exit 1 when any would); apply nothing')
    .option(
      '-n, --namespace <namespace>',
      "namespace of objects that name none (default: the kubeconfig context's, else default)",
    )
    .option(
      '--field-manager <name>',
      'the field manager recorded for the applied fields',
      checkFieldManager,
      'platform-cli',
    )
    .option('--force-conflicts', 'take over fields another field manager owns')
    .option('--kubeconfig <path>', 'the kubeconfig (default: $KUBECONFIG, else ~/.kube/config)')
    .action(action(async (ctx, flags: ApplyFlags) => (await import('./apply-command.ts')).apply(ctx, flags)));
}
