// Runs the signature properties against a BUILT entry (dist/node.js or dist/web.js) on the
// runtime running this file; exits non-zero on a counterexample. Usage: run-properties.mjs node|web
import { signatureProperties } from './signature-properties.mjs';

const [build = 'node'] = process.argv.slice(2);
const api = await import(new URL(`../dist/${build}.js`, import.meta.url).href);
const runtime = globalThis.Bun
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `deno ${globalThis.Deno.version.deno}`
    : `node ${process.version}`;
const properties = Object.entries(signatureProperties(api));
let failed = 0;
for (const [name, run] of properties) {
  try {
    await run();
  } catch (error) {
    failed++;
    console.error(`properties on ${runtime} ${build}: "${name}" failed\n${error.message}`);
  }
}
if (failed > 0) process.exit(1);
console.log(`properties on ${runtime} ${build}: ${properties.length} held, 0 failed`);
