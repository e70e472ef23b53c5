import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every file starts its own redis-server and child processes on two shared cores: one file at
    // a time keeps the timings honest, and each test bounds itself well inside this limit.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    fileParallelism: false,
  },
});
