import { describe, expect, it } from 'vitest';
import { rebaseSourceMap } from './source-maps.ts';

const tscMap = (source: string): string =>
  `{"version":3,"file":"main.js","sourceRoot":"","sources":["${source}"],"names":[],"mappings":"AAAA"}`;

describe('source maps of a staged compile', () => {
  it('point at the sources as from the checkout dist/, whatever the staging dir', () => {
    const staged = '/cache/images/app-staging-4711/dist/operator';
    const rebased = rebaseSourceMap(
      tscMap('../../../../../repo/operator/main.ts'),
      staged,
      '/repo/dist/operator',
    );
    expect(rebased).toBe(tscMap('../../operator/main.ts'));
  });

  it('leave maps with a sourceRoot or absolute sources alone', () => {
    const withRoot = '{"version":3,"sourceRoot":"/src","sources":["a.ts"]}';
    expect(rebaseSourceMap(withRoot, '/x', '/y')).toBe(withRoot);
    expect(rebaseSourceMap(tscMap('/abs/a.ts'), '/x', '/y')).toBe(tscMap('/abs/a.ts'));
  });
});
