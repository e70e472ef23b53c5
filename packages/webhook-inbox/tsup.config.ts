import { defineConfig } from 'tsup';

const library = {
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'adapters/node': 'src/adapters/node.ts',
  'adapters/fetch': 'src/adapters/fetch.ts',
  'adapters/fastify': 'src/adapters/fastify.ts',
};

export default defineConfig([
  // `@forms-api/internal` (private) is inlined into the code and, by `dts.resolve`, the declarations.
  // Splitting for CommonJS too: the entries share one copy of InboxError, so `instanceof` holds
  // between an error from `/express` and the class required from the package root.
  {
    entry: library,
    format: ['esm', 'cjs'],
    splitting: true,
    dts: { resolve: [/^@forms-api\/internal/] },
    clean: true,
    target: 'es2022',
    platform: 'node',
  },
  { entry: { bin: 'src/bin.ts' }, format: ['esm'], dts: false, target: 'es2022', platform: 'node' },
]);
