import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two shared cores: HTTP round trips and the 500-submission load test need headroom.
    testTimeout: 60_000,
    maxWorkers: 2,
  },
});
