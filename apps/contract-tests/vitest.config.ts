// Unit tests and the self-test; the end-to-end runs start Prism, so give them room on a shared machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Prism processes are heavy; run test files one after another on 2 shared cores.
    fileParallelism: false,
  },
});
