import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    reporters: ['default'],
    // The files only read the spec and its bundle: a worker keeps the modules it loaded (Redocly,
    // Ajv, the YAML parser) for the next file instead of importing them anew for each.
    isolate: false,
  },
});
