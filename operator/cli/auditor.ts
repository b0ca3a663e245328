// `platform auditor`: being written (issue 21).
import type { Command } from 'commander';

export function addAuditorCommands(program: Command): void {
  program.command('auditor').description('(not yet available)');
}
