import { defineConfig } from 'tsup';
import { tool } from '../../tsup.preset.ts';

// One entry per `exports` target (with declarations) and one for the `forms-sandbox` launcher
// (bin/ imports dist/cli.js). Sourcemaps stay in dist/ for debugging; `files` leaves them out.
export default defineConfig(
  tool({
    entry: { index: 'src/index.ts', 'behaviour/public': 'src/behaviour/public.ts', cli: 'src/cli.ts' },
    dts: { entry: { index: 'src/index.ts', 'behaviour/public': 'src/behaviour/public.ts' } },
    sourcemap: true,
  }),
);
