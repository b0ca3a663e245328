// `platform login` trades a credential the Verifier accepts (an API key such
// as the bootstrap admin key, an OIDC ID token, or a Kubernetes service
// account token) for an API key of the CLI's own, minted through
// POST /v1/api-keys and kept in the configuration file (mode 0600).
// `platform logout` revokes that key and removes the file.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { ApiClient } from './client.ts';
import { removeConfig, resolveTarget, writeConfig, type CliConfig } from './config.ts';
import { action, type CliContext } from './context.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { render } from './output.ts';

interface LoginFlags {
  token?: string;
  tokenStdin?: boolean;
  role?: string;
  expiresIn?: string;
}

interface Minted {
  id: string;
  key: string;
  subject: string;
  role: string;
  expires_at: string | null;
}

const DURATION_RE = /^(\d{1,6})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `90m` → an ISO expiry from now; undefined for no expiry. */
export function expiryFrom(value: string | undefined, nowMs: number): string | undefined {
  if (value === undefined || value === 'never') return undefined;
  const m = DURATION_RE.exec(value);
  if (!m || Number(m[1]) === 0)
    throw usageError(`invalid --expires-in '${value}'`, 'use e.g. 90m, 12h, 30d or never');
  return new Date(nowMs + Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]).toISOString();
}

function credentialOf(flags: LoginFlags): string {
  const raw = flags.tokenStdin ? readFileSync(0, 'utf8') : flags.token;
  const token = raw?.trim();
  if (!token) {
    throw usageError(
      'no credential given',
      'pass --token <api key, OIDC ID token or service-account token> or --token-stdin',
    );
  }
  return token;
}

async function login(ctx: CliContext, flags: LoginFlags): Promise<number> {
  const credential = credentialOf(flags);
  const expiresAt = expiryFrom(flags.expiresIn ?? '30d', Date.now());
  // The key in PLATFORM_API_KEY or the file is not what logs in: the given credential is.
  const base = resolveTarget({ server: ctx.target().server }, {}, {});
  const client = new ApiClient(base);
  const body = {
    description: `platform CLI on ${hostname()}`,
    ...(flags.role ? { role: flags.role } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  };
  const { body: minted } = await client
    .post<Minted>('/v1/api-keys', body, { token: credential })
    .catch((err: unknown) => {
      if (err instanceof CliError && err.exitCode === EXIT.auth) {
        throw new CliError(
          `the Verifier at ${base.server} did not accept that credential`,
          EXIT.auth,
          'check the token and try again',
        );
      }
      throw err;
    });
  const previous = ctx.config();
  writeConfig(ctx.configPath, {
    server: base.server,
    api_key: minted.key,
    key_id: minted.id,
    subject: minted.subject,
    expires_at: minted.expires_at,
  });
  // The key this login replaces would otherwise stay valid with no copy left to revoke it.
  if (previous.key_id !== minted.id) await revoke(ctx, previous);
  const summary = {
    server: base.server,
    subject: minted.subject,
    role: minted.role,
    key_id: minted.id,
    expires_at: minted.expires_at,
    config: ctx.configPath,
  };
  ctx.out(
    ctx.format === 'table'
      ? `Logged in to ${base.server} as ${minted.subject} (${minted.role} key ${minted.id}, expires ${minted.expires_at ?? 'never'}); saved in ${ctx.configPath}`
      : render(ctx.format, summary, { rows: [], columns: [] }),
  );
  return EXIT.ok;
}

/** Revokes a key of the config file with itself; a key the server no longer knows or accepts is gone already. */
async function revoke(ctx: CliContext, config: CliConfig): Promise<void> {
  if (!config.api_key || !config.key_id) return;
  const target = resolveTarget({ server: config.server }, {}, config);
  try {
    await new ApiClient(target).request('DELETE', `/v1/api-keys/${config.key_id}`, { accept: [401, 404] });
  } catch (err) {
    ctx.note(
      `warning: the key ${config.key_id} was not revoked at the server (${err instanceof CliError ? err.line() : String(err)})`,
    );
  }
}

/** The config file's contents; a file that cannot be read holds no key this command could revoke. */
function configOrNothing(ctx: CliContext): CliConfig | undefined {
  try {
    return ctx.config();
  } catch (err) {
    ctx.note(
      `warning: ${err instanceof CliError ? err.line() : String(err)}; removing it without revoking a key`,
    );
    return undefined;
  }
}

async function logout(ctx: CliContext): Promise<number> {
  const config = configOrNothing(ctx);
  if (config) await revoke(ctx, config);
  const removed = removeConfig(ctx.configPath);
  ctx.out(removed ? `Logged out; removed ${ctx.configPath}` : `Not logged in (no ${ctx.configPath})`);
  return EXIT.ok;
}

export function addLoginCommands(program: Command): void {
  program
    .command('login')
    .description(
      'mint an API key of your own with a credential the Verifier accepts, and keep it in the config file',
    )
    .option('--token <credential>', 'an API key, OIDC ID token or Kubernetes service-account token')
    .option('--token-stdin', 'read the credential from standard input')
    .option('--role <role>', "the new key's role (user, or org_admin/workspace_admin for administrators)")
    .option('--expires-in <duration>', 'lifetime of the new key: 90m, 12h, 30d or never', '30d')
    .action(action(login));
  program
    .command('logout')
    .description("revoke the CLI's API key and remove the config file")
    .action(action(logout));
}
