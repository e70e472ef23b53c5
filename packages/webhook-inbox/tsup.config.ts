import { defineConfig } from 'tsup';
import { library, tool } from '../../tsup.preset.ts';

export default defineConfig([
  library({
    entry: {
      index: 'src/index.ts',
      cli: 'src/cli.ts',
      'adapters/node': 'src/adapters/node.ts',
      'adapters/fetch': 'src/adapters/fetch.ts',
      'adapters/fastify': 'src/adapters/fastify.ts',
    },
    platform: 'node',
  }),
  // The `forms-webhook-inbox` command; the library build above cleans dist/.
  tool({ entry: { bin: 'src/bin.ts' }, clean: false }),
]);
