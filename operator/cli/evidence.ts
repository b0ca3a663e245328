// `platform evidence`: being written (issue 21).
import type { Command } from 'commander';

export function addEvidenceCommands(program: Command): void {
  program.command('evidence').description('(not yet available)');
}
