// `platform run auditor <name>`: looks the auditor up in the built-in registry
// and serves it with the SDK.
import { ConfigError } from '../base/config.ts';
import type { RoleRunner } from '../base/role.ts';
import { BUILTIN_AUDITORS } from './registry.ts';

export const runAuditor: RoleRunner = async (context) => {
  const name = context.name;
  const load = name ? BUILTIN_AUDITORS[name] : undefined;
  if (!name || !load) {
    throw new ConfigError([
      `unknown auditor '${name ?? ''}'; built-in auditors: ${Object.keys(BUILTIN_AUDITORS).join(', ') || '(none yet)'}`,
    ]);
  }
  const { serveAuditor } = await import('./sdk/serve.ts');
  await serveAuditor(await load(), context);
};
