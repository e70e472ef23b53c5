#!/usr/bin/env node
// `forms-webhook-inbox`, committed so that pnpm can link it before the first build: it runs dist/bin.js, the command itself.
import { fileURLToPath } from 'node:url';

await import('../dist/bin.js').catch((err) => {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || err.url !== new URL('../dist/bin.js', import.meta.url).href) throw err;
  console.error(`forms-webhook-inbox: ${fileURLToPath(err.url)} does not exist yet; run \`pnpm build\` first.`);
  process.exitCode = 1;
});
