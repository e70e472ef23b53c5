import { defineConfig } from 'tsup';

// The `forms-contract` command (bin/ imports dist/cli.js), and the modules the benchmarks load from
// dist/ (bench/*.mjs). ESM only, no declarations: the package is a command, it exports nothing.
// `@forms-api/internal` (private) is inlined.
export default defineConfig({
  entry: {
    cli: 'src/cli.ts',
    drift: 'src/drift.ts',
    spec: 'src/spec.ts',
    runner: 'src/runner.ts',
    'explore/explore': 'src/explore/explore.ts',
    'suites/index': 'src/suites/index.ts',
    'targets/sandbox': 'src/targets/sandbox.ts',
  },
  format: ['esm'],
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20.19',
  platform: 'node',
});
