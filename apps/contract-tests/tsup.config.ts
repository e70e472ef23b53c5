import { defineConfig } from 'tsup';
import { tool } from '../../tsup.preset.ts';

// The `forms-contract` command (bin/ imports dist/cli.js), and the modules the benchmarks load from
// dist/ (bench/*.mjs, scripts/*.mjs). No declarations: the package is a command, it exports nothing. Sourcemaps
// stay in dist/ for debugging; `files` leaves them out.
export default defineConfig(
  tool({
    entry: {
      cli: 'src/cli.ts',
      drift: 'src/drift.ts',
      spec: 'src/spec.ts',
      runner: 'src/runner.ts',
      'explore/explore': 'src/explore/explore.ts',
      'suites/index': 'src/suites/index.ts',
      'targets/sandbox': 'src/targets/sandbox.ts',
      'selftest/faults': 'src/selftest/faults.ts',
      'selftest/run-self-test': 'src/selftest/run-self-test.ts',
    },
    sourcemap: true,
  }),
);
