#!/usr/bin/env node
// The `forms-webhook` command: a committed launcher, so the bin exists on a fresh install before the first
// build (pnpm links bins at install time and warns about a missing target).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(`forms-webhook: ${fileURLToPath(entry)} does not exist yet; run \`pnpm build\` first.\n`);
  process.exit(1);
}
await import(entry.href);
