import { defineConfig } from 'vitest/config';

// Every database test runs on embedded PGlite; when TEST_DATABASE_URL is set (CI does), the same
// files run a second time against that PostgreSQL server. Pure unit tests (*.unit.test.ts) need
// no database and run once; *.postgres.test.ts files need the PostgreSQL server and run only there.
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Generous: several full suites may share this 2-core machine, and a file's set-up (a database,
    // migrations, an app) then takes minutes rather than seconds. A time-out here is never a result.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    projects: [
      {
        // Projects inherit the root options (timeouts) only when they say so.
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.unit.test.ts', '**/*.postgres.test.ts', '**/node_modules/**'],
          env: { DAKIYA_TEST_ENGINE: 'pglite' },
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
                exclude: ['**/*.unit.test.ts', '**/node_modules/**'],
                env: { DAKIYA_TEST_ENGINE: 'postgres' },
                globalSetup: ['test/postgres-global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
