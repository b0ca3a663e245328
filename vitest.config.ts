// Projects: `unit` (pure, no I/O, fast), `process` (real processes and HTTP
// servers on loopback, no cluster), `integration` (a real kube-apiserver +
// etcd booted once per run by the global setup), `ui` (the management UI in
// chromium against the facade on that control plane), `e2e` (the whole system
// with a real node: agent pods run), `install` (the dev overlay, then the Helm
// chart, installed into that cluster with the local images, as a user does) and `start` (`npm
// start` itself, as a user runs it). e2e, install and start each need the
// machine's one node, so they run one after the other, one file at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [
            'node_modules/**',
            'dist/**',
            'test/integration/**',
            'test/process/**',
            'test/e2e/**',
            'test/start/**',
            'test/install/**',
            'test/ui/**',
            '**/*.int.test.ts',
          ],
          environment: 'node',
          // Pure tests are fast, but a loaded machine (CI beside other work) stretches a first call that
          // compiles large regexes past vitest's 5 s default; the limit is a hang guard, not a speed check.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', '**/*.int.test.ts'],
          // The second CI leg leaves the schemathesis fuzzers out (decision 302).
          exclude: [
            'node_modules/**',
            'dist/**',
            ...(process.env.PLATFORM_TEST_SKIP_FUZZ === '1' ? ['test/integration/api-schemathesis-*'] : []),
          ],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          // The management UI in Debian's chromium (playwright-core) against the facade on the
          // integration control plane: one browser per file, files one after the other.
          name: 'ui',
          include: ['test/ui/**/*.test.ts'],
          globalSetup: ['test/ui/build-bundle.ts', 'test/integration/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The facade serves ui/dist: built from the sources first, as in the `ui` project.
          globalSetup: ['test/ui/build-bundle.ts', 'test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 900_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'install',
          include: ['test/install/**/*.test.ts'],
          globalSetup: ['test/install/global-setup.ts'],
          fileParallelism: false,
          // One sequence (install, samples, call, uninstall): a test's limit covers its waits.
          testTimeout: 600_000,
          hookTimeout: 900_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'start',
          include: ['test/start/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 900_000,
          pool: 'forks',
        },
      },
    ],
  },
});
