// What a long-running role of the `platform` binary receives and exports. Each
// role module (`*/run.ts`) exports a RoleRunner: it starts its servers,
// registers its stop steps on the lifecycle and returns. The binary's table of
// roles (operator/roles.ts) imports the runners; they import only this type.
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './log.ts';

export interface RoleContext {
  log: Logger;
  lifecycle: Lifecycle;
  /** Flags given on the command line, by name without dashes. */
  flags: Record<string, string | undefined>;
  env: NodeJS.ProcessEnv;
  /** Positional argument after the role (the auditor name for `auditor`). */
  name?: string;
}

export type RoleRunner = (context: RoleContext) => Promise<void>;
