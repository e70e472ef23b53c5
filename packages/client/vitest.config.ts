import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** The one file that replaces a module of the client with vi.mock (to count what redaction is given). */
const MOCKS_A_MODULE = 'test/error-bodies-are-redacted-within-a-bound.test.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // Same injection as tsup.config.ts, so tests run the sources with the real version.
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
  test: {
    // The machine is shared: two workers are plenty for these small HTTP tests.
    maxWorkers: 2,
    // A bound for a hang, not a speed claim: a test that takes seconds alone may take several
    // times that on a shared machine, and no test here asserts how long anything took.
    testTimeout: 30_000,
    // For the test that timeouts still fire after garbage collection.
    execArgv: ['--expose-gc'],
    projects: [
      // Each file starts its own servers and clients and the client keeps no state between them,
      // so a worker keeps the modules it loaded for the next file: importing them anew for each
      // file cost more CPU than the tests (51 CPU-s against 20 for the whole suite).
      {
        extends: true,
        test: { name: 'client', include: ['test/**/*.test.ts'], exclude: [MOCKS_A_MODULE], isolate: false },
      },
      // vi.mock replaces a module for its file alone: that file gets modules of its own.
      { extends: true, test: { name: 'mocked-module', include: [MOCKS_A_MODULE] } },
    ],
  },
});
