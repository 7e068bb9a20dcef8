import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.js';

// Which files run where, by name:
//   *.unit.test.ts      need no database: once, in the unit project.
//   *.once.test.ts      build the app on a database but test nothing the engine decides (HTTP
//                       validation, rendering, limits, browsers): once, on embedded PGlite.
//   *.postgres.test.ts  need a PostgreSQL server: once, in the postgres project, reported skipped
//                       (with the reason) when TEST_DATABASE_URL is unset.
//   *.test.ts           every other database test: on PGlite, and again on the TEST_DATABASE_URL
//                       server when it is set (CI sets it).
// The fuzz test sends thousands of random requests to look for a 500; both engines run the same
// PostgreSQL code behind the same HTTP layer, so it runs once: on the server when there is one
// (where it took 20 s of CI against PGlite's 55 s), else on PGlite (decision 101). So do the
// panel's browser tests that are not `.once` already: they drive the panel through the same API
// the engines' own tests cover, and took 167 s of CI on PGlite against 108 s on the server
// (decision 140).
const postgresUrl = process.env.TEST_DATABASE_URL;
const ONCE_ON_THE_SERVER = ['test/fuzz.test.ts', 'test/**/*.browser.test.ts'];
// Trees the tests read as data (the layer check's fixtures hold a test file of their own).
const FIXTURES = ['test/fixtures/**', '**/node_modules/**'];

export default defineConfig({
  test: {
    // Generous: several full suites may share this 2-core machine, and a file's set-up (a database,
    // migrations, an app) then takes minutes rather than seconds. A time-out here is never a result.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // The default is one fewer than the cores, so one file at a time here. Most of a database test
    // file's time is spent waiting on its engine, its child processes or a browser, so two files
    // at once keep both cores busy.
    maxWorkers: 2,
    pool: 'forks',
    // A worker runs file after file in one module graph: the app's modules, the rate tables and the
    // label fonts load once per worker instead of once per file. Files keep nothing in shared
    // modules that another reads (each opens its own database, app and clock), none mocks modules
    // or timers, and the one that sets an environment variable puts it back.
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ['default', './test/slowest-files-reporter.ts'],
    projects: [
      {
        // Projects inherit the root options (timeouts, workers) only when they say so.
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'],
          exclude: FIXTURES,
          // dist/, which the tests that start the server or the CLI as processes of their own run.
          globalSetup: ['test/build-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [
            '**/*.unit.test.ts',
            '**/*.postgres.test.ts',
            '**/node_modules/**',
            ...FIXTURES,
            ...(postgresUrl ? ONCE_ON_THE_SERVER : []),
          ],
          env: { DAKIYA_TEST_ENGINE: 'pglite' },
          globalSetup: ['test/build-global-setup.ts', 'test/pglite-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgresUrl
            ? ['src/**/*.test.ts', 'test/**/*.test.ts']
            : ['src/**/*.postgres.test.ts', 'test/**/*.postgres.test.ts'],
          exclude: ['**/*.unit.test.ts', '**/*.once.test.ts', '**/node_modules/**', ...FIXTURES],
          env: { DAKIYA_TEST_ENGINE: 'postgres' },
          globalSetup: ['test/build-global-setup.ts', 'test/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
