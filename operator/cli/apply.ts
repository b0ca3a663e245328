// `platform apply`: being written (issue 21).
import type { Command } from 'commander';

export function addApplyCommands(program: Command): void {
  program.command('apply').description('(not yet available)');
}
