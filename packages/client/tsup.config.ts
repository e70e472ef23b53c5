import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // `@forms-api/internal` (private) is inlined into the code and, by `dts.resolve`, the declarations.
  dts: { resolve: [/^@forms-api\/internal/] },
  clean: true,
  sourcemap: false,
  target: 'es2022',
  define: { __CLIENT_VERSION__: JSON.stringify(version) },
});
