// Debian's chromium driven by playwright-core (an explicit executable path;
// nothing is downloaded), axe-core injected from its own source, and the
// run's screenshots written to an artifacts directory.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser binary: PLATFORM_CHROMIUM, else Debian's chromium (hack/prereqs.sh installs it). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const found = [env.PLATFORM_CHROMIUM, ...CANDIDATES].find((p): p is string => !!p && existsSync(p));
  if (!found)
    throw new Error(
      'chromium not found: apt-get install chromium (hack/prereqs.sh), or set PLATFORM_CHROMIUM',
    );
  return found;
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in CI containers: chromium's sandbox needs user namespaces it may not have there.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Where the run writes its screenshots: PLATFORM_ARTIFACTS_DIR, else a directory under the system temp. */
export function artifactsDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PLATFORM_ARTIFACTS_DIR ?? join(tmpdir(), 'agent-platform-artifacts', 'ui');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol: the UI's CSP (rightly) refuses an injected script tag.
  await page.evaluate(AXE_SOURCE);
  const rules = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];
  const violations = (await page.evaluate(
    `axe.run({ runOnly: { type: 'tag', values: ${JSON.stringify(rules)} } }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 740 },
} as const;

/** Screenshots of the page at desktop and 375 px width, named `<name>-desktop.png` and `<name>-mobile.png`. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  const dir = artifactsDir();
  const written: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    const path = join(dir, `${name}-${label}.png`);
    await page.screenshot({ path, fullPage: true });
    written.push(path);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return written;
}
