// `platform model`: register a model with the Verifier (POST
// /v1/models/register), list the registrations (GET /v1/models), verify one
// (its endpoint's /models and its image digest), and send a sample request
// through a gateway (POST /v1/evaluate). docs/cli.md.
import type { Command } from 'commander';
import { modelRegistration, type ModelRegisterFlags } from './auditor-view.ts';
import { action, type CliContext } from './context.ts';
import { EXIT } from './errors.ts';
import { testModel, verifyModel, type ModelItem } from './model-check.ts';
import { render, type Column } from './output.ts';

async function registerModel(ctx: CliContext, flags: ModelRegisterFlags): Promise<number> {
  const { body } = await ctx
    .client()
    .post<{ registered: boolean; model_id: string; name: string }>(
      '/v1/models/register',
      modelRegistration(flags),
    );
  ctx.out(
    ctx.format === 'table'
      ? `model ${body.model_id} registered (modelregistration/${body.name})`
      : render(ctx.format, body, { rows: [], columns: [] }),
  );
  return EXIT.ok;
}

const LIST_COLUMNS: Column<ModelItem>[] = [
  { header: 'model id', value: (m) => m.model_id },
  { header: 'type', value: (m) => m.model_type },
  { header: 'mode', value: (m) => m.deployment_mode },
  { header: 'endpoint', value: (m) => m.endpoint ?? m.image },
  { header: 'digest', value: (m) => m.image_digest },
];

async function listModels(ctx: CliContext): Promise<number> {
  const { body } = await ctx.client().get<{ items: ModelItem[] }>('/v1/models');
  ctx.out(render(ctx.format, body, { rows: body.items, columns: LIST_COLUMNS }));
  return EXIT.ok;
}

export function addModelCommands(program: Command): void {
  const model = program.command('model').description('register, list, verify and try models');
  model
    .command('register')
    .description('register (or re-register) a model with the Verifier (POST /v1/models/register)')
    .requiredOption('--id <model-id>', 'the model id requests name, e.g. gpt-4o or meta/llama-3')
    .requiredOption('--mode <mode>', 'deployment mode: sidecar, in-cluster or external')
    .option('--endpoint <url>', 'its OpenAI-compatible base URL, e.g. http://host:11434/v1')
    .option('--type <type>', 'chat, completion, embedding or classifier')
    .option('--image <ref>', "a sidecar model's image")
    .option('--digest <sha256:…>', 'the image digest')
    .option('--auth <type>', 'how the platform reaches it: none, mtls or api_key')
    .option('--cert-file <pem>', 'with --auth mtls: the PEM certificate (or CA) it presents')
    .option('--secret <name/key>', 'with --auth api_key: the Secret and key holding the API key')
    .action(action(registerModel));
  model.command('list').description('registered models (GET /v1/models)').action(action(listModels));
  model
    .command('verify')
    .description(
      'check a registered model: <endpoint>/models answers and lists it; its digest (with --digest)',
    )
    .argument('<id>', 'the model id (or its registration name)')
    .option('--digest <sha256:…>', 'the image digest it must be registered with')
    .option('--url <url>', 'check this base URL instead of the registered endpoint')
    .action(action(verifyModel));
  model
    .command('test')
    .description(
      "send a sample request through a gateway's POST /v1/evaluate; print the decision and reasons",
    )
    .requiredOption('--gateway <url>', 'the gateway, e.g. http://127.0.0.1:8099')
    .option('--prompt <text>', 'the request text', 'What is the capital of France?')
    .option('--answer <text>', 'a model answer: evaluates the response phase (with the prompt)')
    .option('--phase <phase>', 'request or response (default: response when --answer is given)')
    .option('--model <id>', 'the model id the request names')
    .option('--expect <decision>', 'allow or deny: exit 1 when the gateway decides otherwise')
    .action(
      action(
        (ctx: CliContext, flags: Omit<Parameters<typeof testModel>[1], 'output'> & { answer?: string }) =>
          testModel(ctx, { ...flags, ...(flags.answer !== undefined ? { output: flags.answer } : {}) }),
      ),
    );
}
