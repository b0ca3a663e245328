// The user commands of the `platform` binary, one module per group.
import type { Command } from 'commander';
import { addApplyCommands } from './apply.ts';
import { addAuditorCommands } from './auditor.ts';
import { addEvidenceCommands } from './evidence.ts';
import { addLoginCommands } from './login.ts';
import { addModelCommands } from './model.ts';
import { addPolicyCommands } from './policy.ts';

export function registerUserCommands(program: Command): void {
  addApplyCommands(program);
  addLoginCommands(program);
  addAuditorCommands(program);
  addModelCommands(program);
  addPolicyCommands(program);
  addEvidenceCommands(program);
}
