import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { library, tool } from '../../tsup.preset.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

const define = { __CLIENT_VERSION__: JSON.stringify(version) };

export default defineConfig([
  library({
    entry: { index: 'src/index.ts', redact: 'src/redaction.ts', submissions: 'src/submissions.ts' },
    define,
  }),
  // The `forms-export` command (Node only); the library build above cleans dist/.
  tool({ entry: { bin: 'src/cli/bin.ts' }, clean: false, define }),
]);
