// `platform model`: being written (issue 21).
import type { Command } from 'commander';

export function addModelCommands(program: Command): void {
  program.command('model').description('(not yet available)');
}
