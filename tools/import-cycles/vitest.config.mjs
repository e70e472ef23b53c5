import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // Each case runs madge in a child process: TypeScript resolution takes seconds on a shared 2-core machine.
    testTimeout: 60_000,
  },
});
