// Paths of the extra runtimes the packages are tested on. They live in this package, not in the
// packages themselves, because the Node packages declare a `node` bin that would otherwise
// shadow the Node.js running each package's scripts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const local = (path) => fileURLToPath(new URL(`./node_modules/${path}`, import.meta.url));

/** name → { command, args } to run a script file: `[command, ...args, file]`. */
export const runtimes = {
  // Node 20 at the workspace's own floor (`engines` in the root package.json).
  'node 20': { command: local('node20/bin/node'), args: [] },
  'node 22': { command: local('node22/bin/node'), args: [] },
  'node 24': { command: local('node24/bin/node'), args: [] },
  bun: { command: local('bun-linux-x64/bin/bun'), args: [] },
  deno: { command: local('deno-linux-x64/deno'), args: ['run', '--allow-read', '--allow-env', '--allow-net'] },
};

/** Throws with the fix when a binary is missing (for example on a platform other than linux-x64). */
export function assertRuntimesInstalled() {
  const missing = Object.entries(runtimes).filter(([, r]) => !existsSync(r.command));
  if (missing.length > 0) {
    throw new Error(
      `Missing runtime binaries: ${missing.map(([name, r]) => `${name} (${r.command})`).join(', ')}. Run \`pnpm install\` on linux-x64.`,
    );
  }
}

/** Environment that keeps Deno and Bun quiet and offline-friendly. */
export const runtimeEnv = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

/**
 * The Nodes of `runtimes` whose major differs from this process's: where a suite that has just
 * run on this Node must run again for every Node the packages claim.
 * @returns {Array<[string, { command: string, args: string[] }]>}
 */
export function otherNodes() {
  const here = `node ${process.versions.node.split('.')[0]}`;
  return Object.entries(runtimes).filter(([name]) => name.startsWith('node ') && name !== here);
}

/**
 * Runs vitest on `files` of the package in `cwd` under each Node of `otherNodes()`, printing each
 * run's summary, or its whole output when it failed.
 * @param {string} cwd the package's directory (its own vitest and config)
 * @param {string[]} files test files, relative to `cwd`
 * @returns {number} how many runs failed
 */
export function vitestOnOtherNodes(cwd, files) {
  assertRuntimesInstalled();
  const vitest = join(cwd, 'node_modules/vitest/vitest.mjs');
  let failed = 0;
  for (const [name, runtime] of otherNodes()) {
    const run = spawnSync(runtime.command, [vitest, 'run', '--reporter=dot', ...files], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...runtimeEnv },
    });
    const summary = run.stdout
      .split('\n')
      .filter((line) => /Test Files|Tests /.test(line))
      .join('\n');
    if (run.status === 0) console.log(`vitest on ${name}:\n${summary}`);
    else {
      failed++;
      console.error(`vitest on ${name} FAILED (exit ${run.status ?? run.signal})\n${run.stdout}${run.stderr}`);
    }
  }
  return failed;
}

/**
 * Runs a benchmark script on Node 24 (current LTS) first, then on the Node running the caller
 * (the oldest supported), each printing its own output; exits the process, 1 when either failed.
 * @param {URL | string} script the benchmark file
 */
export function runBenchOnNode24ThenThisNode(script) {
  assertRuntimesInstalled();
  const file = typeof script === 'string' ? script : fileURLToPath(script);
  let failed = false;
  for (const [name, command] of [
    ['node 24', runtimes['node 24'].command],
    [`node ${process.versions.node.split('.')[0]} (this process)`, process.execPath],
  ]) {
    console.log(`\n== ${name} ==`);
    const run = spawnSync(command, [file], { stdio: 'inherit', env: process.env });
    if (run.status !== 0) {
      console.error(`the benchmark failed on ${name} (exit ${run.status ?? run.signal})`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
