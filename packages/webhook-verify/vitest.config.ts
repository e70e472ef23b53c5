import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CI shares two cores between turbo tasks: property runs and HTTP servers need headroom.
    testTimeout: 30_000,
    maxWorkers: 2,
  },
});
