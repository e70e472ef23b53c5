import { defineConfig } from 'vitest/config';

/**
 * The files that read what the process's one rejection log, or a fix told once per process, wrote
 * on stderr: each needs modules of its own, as a fresh process has them.
 */
const READ_PROCESS_STDERR = [
  'test/adapters-tell-of-refusals-and-name-the-likely-cause.test.ts',
  'test/express-json-first-is-answered-json-500-and-the-fix-told-once.test.ts',
];

export default defineConfig({
  test: {
    // CI shares two cores between turbo tasks: property runs and HTTP servers need headroom.
    testTimeout: 30_000,
    maxWorkers: 2,
    projects: [
      // The other files share no state: a worker keeps the modules it loaded for the next file
      // instead of importing them anew for each (54 CPU-s for the suite before, 40 after).
      {
        extends: true,
        test: { name: 'verify', include: ['test/**/*.test.ts'], exclude: READ_PROCESS_STDERR, isolate: false },
      },
      { extends: true, test: { name: 'process-stderr', include: READ_PROCESS_STDERR } },
    ],
  },
});
