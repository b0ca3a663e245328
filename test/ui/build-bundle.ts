// Global setup of the `ui` project: the bundle the facade serves is built from
// the sources once per run, before any file starts its API (which loads it).
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export default async function buildBundle(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../../ui/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
