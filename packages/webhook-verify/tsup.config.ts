import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';

// The CLI's `send` example, taken from the spec bundle at build time (the spec is a dev dependency).
const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
const examples = bundle.webhooks['submission.created'].post.requestBody.content['application/json'].examples;
const SPEC_EXAMPLE_BODY = JSON.stringify((Object.values(examples)[0] as { value: unknown }).value);

// One entry per `exports` target. Declarations sit next to each file (x.d.ts beside x.js,
// x.d.cts beside x.cjs), so package.json needs no `types` conditions.
const library = {
  node: 'src/node.ts',
  web: 'src/web.ts',
  validate: 'src/validate.ts',
  'adapters/fetch-node': 'src/adapters/fetch-node.ts',
  'adapters/fetch-web': 'src/adapters/fetch-web.ts',
  'adapters/node': 'src/adapters/node.ts',
  'adapters/fastify': 'src/adapters/fastify.ts',
};

export default defineConfig([
  // Ajv and ajv-formats are optional peers, left external; only `/validate` imports them.
  // The payload schema is inlined into the validate entry: Node's ESM loader needs an import
  // attribute for JSON that esbuild does not keep, and inlining also suits browser bundles.
  // Splitting for CommonJS too: every entry shares one copy of the error classes, so an error
  // thrown by `/express` is `instanceof` the class required from the package root.
  {
    entry: library,
    format: ['esm', 'cjs'],
    splitting: true,
    // `@forms-api/internal` (private) is inlined into the code and, by `dts.resolve`, the declarations.
    dts: { resolve: [/^@forms-api\/internal/] },
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    external: ['node:crypto', 'node:http', 'node:stream', 'node:buffer'],
    noExternal: [/submission-created\.schema\.json$/],
  },
  {
    entry: { bin: 'src/bin.ts', cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    target: 'es2022',
    platform: 'node',
    define: { SPEC_EXAMPLE_BODY: JSON.stringify(SPEC_EXAMPLE_BODY) },
  },
]);
