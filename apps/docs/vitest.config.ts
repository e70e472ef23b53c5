import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test shares two cores with everything else on CI.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // Each file serves dist and launches a Chromium of its own: files share no state, so two run
    // at a time (vitest's default is one on a 2-core machine), and a worker keeps the modules it
    // loaded (Playwright, the build's Markdown and Redoc helpers) for the next.
    maxWorkers: 2,
    isolate: false,
  },
});
