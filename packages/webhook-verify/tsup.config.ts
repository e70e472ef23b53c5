import { defineConfig } from 'tsup';

const library = {
  node: 'src/node.ts',
  web: 'src/web.ts',
  validate: 'src/validate.ts',
  'adapters/fetch': 'src/adapters/fetch.ts',
  'adapters/node': 'src/adapters/node.ts',
  'adapters/fastify': 'src/adapters/fastify.ts',
};

export default defineConfig([
  { entry: library, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', platform: 'neutral', external: ['node:crypto', 'node:http'] },
  { entry: { bin: 'src/bin.ts', cli: 'src/cli.ts' }, format: ['esm'], dts: false, target: 'es2022', platform: 'node' },
]);
