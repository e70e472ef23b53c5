import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';
import { library, tool } from '../../tsup.preset.ts';

// The CLI's `send` example, taken from the spec bundle at build time (the spec is a dev dependency).
const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
const examples = bundle.webhooks['submission.created'].post.requestBody.content['application/json'].examples;
const SPEC_EXAMPLE_BODY = JSON.stringify((Object.values(examples)[0] as { value: unknown }).value);

export default defineConfig([
  // One entry per `exports` target. Declarations sit next to each file (x.d.ts beside x.js,
  // x.d.cts beside x.cjs), so package.json needs no `types` conditions.
  // Neutral, not node: the web entries run in browsers and workers; the node modules they may
  // import are named. Ajv and ajv-formats are optional peers, left external; only `/validate`
  // imports them. The payload schema is inlined into the validate entry: Node's ESM loader needs
  // an import attribute for JSON that esbuild does not keep, and inlining also suits browser bundles.
  library({
    entry: {
      node: 'src/node.ts',
      web: 'src/web.ts',
      validate: 'src/validate.ts',
      'adapters/fetch-node': 'src/adapters/fetch-node.ts',
      'adapters/fetch-web': 'src/adapters/fetch-web.ts',
      'adapters/node': 'src/adapters/node.ts',
      'adapters/express': 'src/adapters/express.ts',
      'adapters/fastify': 'src/adapters/fastify.ts',
    },
    platform: 'neutral',
    external: ['node:crypto', 'node:http', 'node:stream', 'node:buffer', 'express'],
    noExternal: [/submission-created\.schema\.json$/],
  }),
  // The `forms-webhook` command; the library build above cleans dist/.
  tool({
    entry: { bin: 'src/bin.ts', cli: 'src/cli.ts' },
    clean: false,
    define: { SPEC_EXAMPLE_BODY: JSON.stringify(SPEC_EXAMPLE_BODY) },
  }),
]);
