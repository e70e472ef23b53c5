import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every file starts its own redis-server (on a free port, with its own data directory) and its
    // own child processes, so files share nothing and run two at a time; each test waits on
    // readiness, never on a duration, and bounds itself well inside this limit.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});
