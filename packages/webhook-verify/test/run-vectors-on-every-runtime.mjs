// Runs the built package's vectors and signature properties on every runtime it claims: this
// Node, the others of Node 20.19.0, 22 and 24, Bun and Deno (binaries from @forms-api/runtimes),
// with the node:crypto build (Bun's native hasher on Bun), the Web Crypto build, and the Web
// Crypto build with globalThis.Buffer deleted. Any difference or counterexample fails.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertRuntimesInstalled, otherNodes, runtimeEnv, runtimes } from '@forms-api/runtimes';

assertRuntimesInstalled();
const runner = fileURLToPath(new URL('./run-vectors.mjs', import.meta.url));
const propertyRunner = fileURLToPath(new URL('./run-properties.mjs', import.meta.url));
const resolveProbe = fileURLToPath(new URL('./resolve-build.mjs', import.meta.url));
const all = [
  [`node ${process.version}`, { command: process.execPath, args: [] }],
  ...otherNodes(),
  ['bun', runtimes.bun],
  ['deno', runtimes.deno],
];
let failed = 0;
for (const [name, runtime] of all) {
  // The export conditions must hand each runtime its fastest build: node:crypto on Node, Bun and
  // Deno (measured: bench/verify.bench.mjs), for the package root and for `/fetch`.
  const want = 'node node';
  const got = execFileSync(runtime.command, [...runtime.args, resolveProbe], {
    encoding: 'utf8',
    env: { ...process.env, ...runtimeEnv },
  }).trim();
  if (got === want) console.log(`${name}: the package name and /fetch resolve to the ${want} builds`);
  else {
    failed++;
    console.error(`${name}: the package name and /fetch resolve to "${got}", expected "${want}"`);
  }
  const runs = [
    [runner, 'node'],
    [runner, 'web'],
    [runner, 'web', '--no-buffer'],
    [propertyRunner, 'node'],
    [propertyRunner, 'web'],
  ];
  for (const run of runs) {
    try {
      process.stdout.write(
        execFileSync(runtime.command, [...runtime.args, ...run], {
          encoding: 'utf8',
          env: { ...process.env, ...runtimeEnv },
        }),
      );
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
