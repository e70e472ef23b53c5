#!/usr/bin/env node
// `forms-contract`, committed so that pnpm can link it before the first build: it runs dist/cli.js, the command itself.
import { fileURLToPath } from 'node:url';

await import('../dist/cli.js').catch((err) => {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || err.url !== new URL('../dist/cli.js', import.meta.url).href) throw err;
  console.error(`forms-contract: ${fileURLToPath(err.url)} does not exist yet; run \`pnpm build\` first.`);
  process.exitCode = 1;
});
