import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { library } from '../../tsup.preset.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig(
  library({
    entry: { index: 'src/index.ts', redact: 'src/redaction.ts', submissions: 'src/submissions.ts' },
    define: { __CLIENT_VERSION__: JSON.stringify(version) },
  }),
);
