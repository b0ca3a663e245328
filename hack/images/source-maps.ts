// tsc writes each source map's `sources` relative to where the map is
// written, so compiling into a staging dir bakes that dir's path into dist/
// and the application layer would differ from build to build. Rewriting the
// paths as if the map sat in the checkout's own dist/ (what `npm run build`
// and the Dockerfile produce) makes the layer depend on the sources alone.
import { posix } from 'node:path';

interface SourceMap {
  sources?: unknown;
  sourceRoot?: unknown;
}

/**
 * A map staged at `stagedMapDir` re-pointed as if it were at `finalMapDir`.
 * Both are absolute POSIX dirs; the sources themselves stay where they are.
 * Pure; key order and compact JSON are kept, as tsc writes them.
 */
export function rebaseSourceMap(text: string, stagedMapDir: string, finalMapDir: string): string {
  const map = JSON.parse(text) as SourceMap;
  if (!Array.isArray(map.sources)) return text;
  const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
  map.sources = map.sources.map((source: unknown) => {
    if (typeof source !== 'string' || posix.isAbsolute(source) || root !== '') return source;
    return posix.relative(finalMapDir, posix.resolve(stagedMapDir, source));
  });
  return JSON.stringify(map);
}
