// Three projects: `unit` (pure, no I/O, fast), `process` (real processes and
// HTTP servers on loopback, no cluster) and `integration` (a real
// kube-apiserver + etcd booted once per run by the global setup).
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
            '**/*.int.test.ts',
          ],
          environment: 'node',
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
          exclude: ['node_modules/**', 'dist/**'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
