import { defineConfig } from 'tsup';

// One entry per `exports` target and one for the `forms-sandbox` launcher (bin/ imports dist/cli.js).
// ESM only: a test-setup tool for Node >= 20.19, where require() loads ES modules.
// `@forms-api/internal` (private) is inlined into the code and, by `dts.resolve`, the declarations.
export default defineConfig({
  entry: { index: 'src/index.ts', 'behaviour/public': 'src/behaviour/public.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: {
    entry: { index: 'src/index.ts', 'behaviour/public': 'src/behaviour/public.ts' },
    resolve: [/^@forms-api\/internal/],
  },
  clean: true,
  sourcemap: true,
  target: 'node20.19',
  platform: 'node',
});
