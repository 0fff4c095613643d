import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The e2e files run one at a time, after the others: those that start a cluster (several
 * instances, nginx, a database of their own), and those that time a page closely (a route's scroll
 * as a pre-rendered page is taken over, axe on a drawer just closed), which failed once in seven
 * whole runs with another file beside them.
 */
const ALONE_FILES = [
  'tests/e2e/cluster.test.ts',
  'tests/e2e/cluster-database-down.test.ts',
  'tests/e2e/app.test.ts',
  'tests/e2e/insights.test.ts',
];

/** What every end-to-end file shares: the built server, started as npm start starts it, and Chromium. */
const BROWSER_AND_SERVER = {
  environment: 'node' as const,
  setupFiles: ['tests/await-fixtures.ts'],
  testTimeout: 90_000,
  hookTimeout: 120_000,
  // A page in Chromium loads its app after the first paint; on two cores shared with the server
  // and the rest of the suite that took over expect.poll's default second once.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  plugins: [react()],
  test: {
    // Tests never reach the network: no server they start fetches models on its first start.
    env: { MODEL_FETCH: 'never' },
    // Every temporary folder of a run is made in one, deleted when the run ends. What many tests
    // start from (fitted models, an empty and a migrated database) is named here by its inputs'
    // hash, and made by the first test that needs it (tests/run-fixtures.ts): the server's and
    // e2e files wait for it (their setup file), the client's only where they start a server.
    globalSetup: ['tests/run-temp-folder.ts', 'tests/run-fixtures.ts'],
    // Vitest's default is one worker fewer than the cores: one, on a 2-core machine. The tests wait
    // on servers, child processes and argon2 as much as they compute: two workers took
    // `npm run test:quick` from 3 min 24 s to 2 min 32 s there. (Some e2e files run one at a time.)
    maxWorkers: 2,
    // In CI a JSON report too, from which .ci/run prints the plain 'N passed, N failed' line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          setupFiles: ['tests/await-fixtures.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          ...BROWSER_AND_SERVER,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE_FILES],
          // After the server's and the client's files, two at a time (each has its own server and
          // Chromium): the run's slowest part, much of it waiting on timers (a token's expiry).
          // One at a time they took 8.7 of a run's 13.5 minutes; two at a time, 5.2 of 9.5.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          ...BROWSER_AND_SERVER,
          // Each file alone, after all the others, so that no other file's load decides its timings.
          name: 'e2e-alone',
          include: ALONE_FILES,
          sequence: { groupOrder: 2 },
          fileParallelism: false,
        },
      },
    ],
  },
});
