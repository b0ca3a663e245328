// Every kind the platform defines. The generator and the installer read this list.
import type { KindDefinition } from './kit.ts';
import { platformAgent } from './kinds/platform-agent.ts';

export const ALL_KINDS: readonly KindDefinition[] = [platformAgent];
