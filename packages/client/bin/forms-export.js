#!/usr/bin/env node
// `forms-export`, committed so that pnpm can link it before the first build: it runs dist/bin.js, the command itself.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `--version` is answered here, the same way by every launcher, before the command loads.
if (process.argv.slice(2).includes('--version')) {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
} else {
  await import('../dist/bin.js').catch((err) => {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || err.url !== new URL('../dist/bin.js', import.meta.url).href) throw err;
    console.error(`forms-export: ${fileURLToPath(err.url)} does not exist yet; run \`pnpm build\` first.`);
    process.exitCode = 1;
  });
}
