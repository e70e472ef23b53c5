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
  // The payload schema is inlined into the validate entry: Node's ESM loader needs an import
  // attribute for JSON that esbuild does not keep, and inlining also suits browser bundles.
  { entry: library, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', platform: 'neutral', external: ['node:crypto', 'node:http'], noExternal: [/submission-created\.schema\.json$/] },
  { entry: { bin: 'src/bin.ts', cli: 'src/cli.ts' }, format: ['esm'], dts: false, target: 'es2022', platform: 'node' },
]);
