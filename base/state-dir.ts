// Where the embedded stores keep their files when no path is configured:
// `$XDG_STATE_HOME/agent-platform/<name>` (`~/.local/state/…` when unset), the
// XDG place for data that should outlive a restart but is not configuration.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function stateFilePath(env: NodeJS.ProcessEnv, name: string, home = homedir()): string {
  const state = env.XDG_STATE_HOME || join(home, '.local', 'state');
  return join(state, 'agent-platform', name);
}
