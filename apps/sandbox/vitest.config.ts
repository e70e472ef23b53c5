import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two shared cores: HTTP round trips and the 500-submission load test need headroom.
    testTimeout: 60_000,
    maxWorkers: 2,
    // Files share no state (each starts its own sandbox), so a worker keeps the modules it loaded
    // for the next file instead of importing the sandbox, Hono and Ajv anew for each of 44 files.
    isolate: false,
  },
});
