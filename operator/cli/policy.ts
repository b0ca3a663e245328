// `platform policy`: being written (issue 21).
import type { Command } from 'commander';

export function addPolicyCommands(program: Command): void {
  program.command('policy').description('(not yet available)');
}
