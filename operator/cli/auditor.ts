// `platform auditor`: make an auditor on the SDK (init), run it with reload
// (dev), check it against the conformance suite (test), register it with the
// Verifier (register), and read the registry (list, schema) or check an
// auditor in service and its image (verify). docs/cli.md.
import type { Command } from 'commander';
import { testCommand, verifyCommand } from './auditor-check.ts';
import { devCommand, initCommand } from './auditor-project.ts';
import { listCommand, registerAuditor, schemaCommand } from './auditor-registry.ts';
import { action } from './context.ts';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function addAuthOptions(cmd: Command): Command {
  return cmd
    .option('--auth <type>', 'how the platform reaches it: none, mtls or api_key')
    .option('--cert-file <pem>', 'with --auth mtls: the PEM certificate (or CA) it presents')
    .option('--secret <name/key>', 'with --auth api_key: the Secret and key holding the API key');
}

function addRegister(auditor: Command): void {
  const cmd = auditor
    .command('register')
    .description('register an auditor with the Verifier (POST /v1/auditors/register)')
    .requiredOption('--id <auditor-id>', 'the auditor id (lower-case letters, digits, hyphens)')
    .option('--name <display name>', 'the name the catalog and `auditor list` show')
    .option(
      '--mode <mode>',
      'deployment mode: sidecar, in-cluster or external (default: external, or sidecar for an image alone)',
    )
    .option('--endpoint <url>', 'where an in-cluster or external auditor answers')
    .option('--image <ref>', "a sidecar's image (the webhook injects it)")
    .option('--digest <sha256:…>', 'the image digest (pinned and checked for notarization)')
    .option(
      '--vocabulary-url <url>',
      'where the Verifier fetches its vocabulary (default <endpoint>/vocabulary)',
    )
    .option('--phases <list>', 'request phases it serves, comma-separated (default: from its vocabulary)')
    .option('--category <category>', 'security, compliance, observability, evaluation or provenance')
    .option(
      '--catalog-phase <phase>',
      'artifact_safety, input_guarding, execution_monitoring or output_policy',
    )
    .option('--workspace <name>', 'a workspace it is for (repeat; none: cluster-wide)', collect)
    .option('--health-interval <seconds>', 'how often the operator probes its /health');
  addAuthOptions(cmd).action(action(registerAuditor));
}

export function addAuditorCommands(program: Command): void {
  const auditor = program.command('auditor').description('make, check and register auditors');
  auditor
    .command('init')
    .description('create a new auditor project on the SDK (it passes the conformance suite as made)')
    .argument('<name>', 'the auditor id, e.g. keyword-watch')
    .option('--dir <dir>', 'where to create it (default ./<name>); must be new or empty')
    .option('--sdk <dir>', 'the platform checkout whose SDK it uses (default: this one)')
    .action(action(initCommand));
  auditor
    .command('dev')
    .description('run a local auditor project, reloading it when a file changes; prints its URL')
    .argument('[dir]', 'the project directory', '.')
    .option('--port <port>', 'listen port on 127.0.0.1 (default: a free one)')
    .option('--gateway <url>', 'register with this gateway (default: no registration)')
    .option('--no-watch', 'run once, without reloading')
    .action(action(devCommand));
  auditor
    .command('test')
    .description(
      'run the conformance suite against a URL, or a local project it starts; exit 1 on any failure',
    )
    .argument('<url|dir>', 'http(s)://host:port of a running auditor, or a project directory')
    .option('--ready-timeout <seconds>', 'how long to wait for ready: true', '60')
    .action(action(testCommand));
  addRegister(auditor);
  auditor
    .command('list')
    .description('built-in and registered auditors (GET /v1/auditors)')
    .action(action(listCommand));
  auditor
    .command('schema')
    .description("an auditor's settings schema: each claim's settings with type, default and bounds")
    .argument('<id>', 'the auditor id')
    .action(action(schemaCommand));
  auditor
    .command('verify')
    .description(
      "check an auditor in service (health, vocabulary, claims, its registration) and its image's labels and user",
    )
    .argument('[id|url]', 'a registered auditor id, or the URL of a running auditor')
    .option('--url <url>', 'where a registered auditor answers, when not at its endpoint (a sidecar)')
    .option('--dockerfile <file>', "check the Dockerfile's final stage: io.platform labels, non-root USER")
    .option('--image-config <file>', 'check an OCI image configuration JSON (or docker inspect output)')
    .action(action(verifyCommand));
}
