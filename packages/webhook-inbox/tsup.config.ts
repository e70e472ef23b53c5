import { defineConfig } from 'tsup';

const library = {
  index: 'src/index.ts',
  cli: 'src/cli.ts',
  'adapters/node': 'src/adapters/node.ts',
  'adapters/fetch': 'src/adapters/fetch.ts',
  'adapters/fastify': 'src/adapters/fastify.ts',
};

export default defineConfig([
  { entry: library, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', platform: 'node' },
  { entry: { bin: 'src/bin.ts' }, format: ['esm'], dts: false, target: 'es2022', platform: 'node' },
]);
