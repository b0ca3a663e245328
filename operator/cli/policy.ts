// `platform policy validate|test|push`: the commands' flags. Their work is in
// policy-command.ts, loaded only when one runs (Cedar and the resource
// validators take most of a second to load).
import type { Command } from 'commander';
import { action } from './context.ts';
import type * as PolicyCommands from './policy-command.ts';
import type { FileFlags, TestFlags } from './policy-command.ts';

const load = (): Promise<typeof PolicyCommands> => import('./policy-command.ts');

const fileOption = (c: Command): Command =>
  c
    .requiredOption(
      '-f, --file <file>',
      'the AuditorPolicy file, YAML or JSON, one or more documents (- for stdin)',
    )
    .option(
      '-n, --namespace <namespace>',
      'namespace of documents that name none (the policy id is <namespace>.<name>)',
      'default',
    );

export function addPolicyCommands(program: Command): void {
  const policy = program.command('policy').description('validate, test and push AuditorPolicy files');
  fileOption(policy.command('validate'))
    .description(
      'check a policy file offline: schema, enforcement modes, Cedar compile (exit 1 when invalid)',
    )
    .option('--registered', 'also know the claims of auditors registered with the Verifier (asks the server)')
    .action(action(async (ctx, flags: FileFlags) => (await load()).validateCmd(ctx, flags)));
  fileOption(policy.command('test'))
    .description('decide claim fixtures under the policy, or replay recorded Evidence (--replay) under it')
    .option(
      '--claims <file|dir>',
      'claim fixtures: a list of {name, claims: {claim: value}, expect?: allow|deny, phase?}',
    )
    .option(
      '--replay <agent|workspace>',
      're-decide the recorded Evidence of an agent (<namespace>.<name>) or a workspace',
    )
    .option(
      '--since <duration>',
      'with --replay: Evidence generated within this long before now (default 24h)',
    )
    .option('--from <time>', 'with --replay: start of the range (RFC 3339)')
    .option('--to <time>', 'with --replay: end of the range (RFC 3339)')
    .option('--policy <name>', 'the policy of the file to test, when it holds several')
    .option('--registered', 'also know the claims of auditors registered with the Verifier (asks the server)')
    .action(action(async (ctx, flags: TestFlags) => (await load()).testCmd(ctx, flags)));
  fileOption(policy.command('push'))
    .description(
      'save the policies of a file through /v1/policies (created or replaced; a refusal shown as is)',
    )
    .option('--policy <name>', 'push only this policy of the file')
    .action(
      action(async (ctx, flags: FileFlags & { policy?: string }) => (await load()).pushCmd(ctx, flags)),
    );
}
