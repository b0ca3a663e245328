// The management UI's built bundle (ui/dist, written by `npm run build:ui`),
// held in memory: the bundle is small, and the facade then answers from a
// map with each file's type, cache policy and ETag fixed once. Pure helpers
// decide the type and the cache policy; `loadUiBundle` is the one reader.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';

/** Where the UI is served (decision 236): under one prefix, beside /v1 and the ops endpoints. */
export const UI_PREFIX = '/ui/';

/**
 * The UI's Content-Security-Policy: its own scripts, styles and API only;
 * no inline script, no framing, no plugins (the bundle has no inline code).
 */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function contentTypeOf(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Vite's hashed file names: `assets/<name>-<8+ url-safe characters>.<ext>`. */
const HASHED = /^assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/** Hashed assets never change under their name: cached for a year; everything else revalidates. */
export function cacheControlOf(path: string): string {
  return HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export interface UiFile {
  body: Buffer;
  type: string;
  cacheControl: string;
  etag: string;
}

export interface UiBundle {
  dir: string;
  /** Bundle-relative path (`index.html`, `assets/index-abc123.js`) → file. */
  files: ReadonlyMap<string, UiFile>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path);
    return e.isFile() ? [path] : [];
  });
}

/** The bundle in `dir`, or undefined when it has no index.html (not built). */
export function loadUiBundle(dir: string): UiBundle | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, UiFile>();
  for (const path of filesUnder(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (name.endsWith('.map')) continue;
    const body = readFileSync(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    files.set(name, { body, type: contentTypeOf(name), cacheControl: cacheControlOf(name), etag });
  }
  return { dir, files };
}

/**
 * The bundle's directory: `ui/dist` beside the package.json this module
 * belongs to, from the sources (api/ui/) and compiled (dist/api/ui/) alike;
 * in the image that is /app/ui/dist.
 */
export function defaultUiDir(from: string = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return join(from, 'ui', 'dist');
    dir = up;
  }
  return join(dir, 'ui', 'dist');
}

/** The bundle file a request path names (under UI_PREFIX), or undefined when it names none. */
export function bundlePathOf(path: string): string | undefined {
  if (!path.startsWith(UI_PREFIX)) return undefined;
  const rest = path.slice(UI_PREFIX.length);
  if (rest === '') return 'index.html';
  if (rest.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return rest;
}
