import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bundlePathOf, cacheControlOf, contentTypeOf, defaultUiDir, UI_CSP } from './bundle.ts';

describe('the UI bundle', () => {
  it('types each file by its extension', () => {
    expect(contentTypeOf('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('assets/index-B4n93-Gc.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('assets/index-Dfmu15CE.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('assets/logo-abcdefgh.SVG')).toBe('image/svg+xml');
    expect(contentTypeOf('LICENSE')).toBe('application/octet-stream');
  });

  it('caches hashed assets for good and revalidates the rest', () => {
    expect(cacheControlOf('assets/index-B4n93-Gc.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('index.html')).toBe('no-cache');
    expect(cacheControlOf('assets/plain.js')).toBe('no-cache');
    expect(cacheControlOf('favicon-B4n93-Gc.ico')).toBe('no-cache');
  });

  it('maps request paths under /ui/ to bundle files and nothing outside', () => {
    expect(bundlePathOf('/ui/')).toBe('index.html');
    expect(bundlePathOf('/ui/assets/index-B4n93-Gc.js')).toBe('assets/index-B4n93-Gc.js');
    expect(bundlePathOf('/ui/../package.json')).toBeUndefined();
    expect(bundlePathOf('/ui/assets//x.js')).toBeUndefined();
    expect(bundlePathOf('/ui/./index.html')).toBeUndefined();
    expect(bundlePathOf('/v1/agents')).toBeUndefined();
  });

  it('finds ui/dist beside the package the module belongs to', () => {
    expect(defaultUiDir(join(import.meta.dirname))).toBe(join(import.meta.dirname, '..', '..', 'ui', 'dist'));
  });

  it('allows no inline script and no framing', () => {
    expect(UI_CSP).toContain("script-src 'self'");
    expect(UI_CSP).not.toContain('unsafe-inline');
    expect(UI_CSP).toContain("frame-ancestors 'none'");
  });
});
