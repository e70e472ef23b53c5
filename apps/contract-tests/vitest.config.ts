// Unit tests and the self-test; the end-to-end runs start Prism, so give them room on a shared machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Each file starts its own Prism or sandbox on ports chosen at run time and writes its reports
    // to a temporary directory of its own: files share nothing, and two run at a time.
    maxWorkers: 2,
    // Sharing nothing, a file can also reuse the modules the file before it loaded in the same
    // worker (the suite, Ajv over the spec, the sandbox) instead of importing them all again.
    isolate: false,
  },
});
