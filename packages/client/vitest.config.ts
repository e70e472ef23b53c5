import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The machine is shared: two workers are plenty for these small HTTP tests.
    maxWorkers: 2,
    testTimeout: 10_000,
    // For the test that timeouts still fire after garbage collection.
    execArgv: ['--expose-gc'],
  },
});
