// Runs the vectors against a BUILT entry (dist/node.js or dist/web.js) in this Node process and
// exits non-zero on any difference from the expected lines. Usage: run-vectors.mjs node|web [--no-buffer]
import { expectedLines, runVectors } from './vector-runner.mjs';

const [build = 'node', flag] = process.argv.slice(2);
if (flag === '--no-buffer') delete globalThis.Buffer;
const api = await import(new URL(`../dist/${build}.js`, import.meta.url).href);
const actual = await runVectors(api);
const expected = expectedLines();
// Compared line by line at the same index (a repeated line must not borrow another's result).
const differences = expected.flatMap((line, i) =>
  actual[i] === line ? [] : [`expected: ${line}\n  actual: ${actual[i]}`],
);
const runtime = globalThis.Bun
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `deno ${globalThis.Deno.version.deno}`
    : `node ${process.version}`;
const label = `${runtime} ${build}${flag ? ` ${flag}` : ''}`;
if (differences.length > 0 || actual.length !== expected.length) {
  console.error(`vectors on ${label}: ${differences.length} difference(s)\n${differences.join('\n')}`);
  process.exit(1);
}
console.log(`vectors on ${label}: ${actual.length} passed, 0 failed`);
