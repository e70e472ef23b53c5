import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // Same injection as tsup.config.ts, so tests run the sources with the real version.
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // The machine is shared: two workers are plenty for these small HTTP tests.
    maxWorkers: 2,
    // A bound for a hang, not a speed claim: a test that takes seconds alone may take several
    // times that on a shared machine, and no test here asserts how long anything took.
    testTimeout: 30_000,
    // For the test that timeouts still fire after garbage collection.
    execArgv: ['--expose-gc'],
  },
});
