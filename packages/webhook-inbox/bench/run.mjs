// `pnpm bench`: the inbox benchmark on Node 24 (current LTS) first, then on the Node running
// this script (the oldest supported, 20), each printing its own table with the search limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertRuntimesInstalled, runtimes } from '@forms-api/runtimes';

assertRuntimesInstalled();
const bench = fileURLToPath(new URL('./inbox.bench.mjs', import.meta.url));
let failed = false;
for (const [name, command] of [['node 24', runtimes['node 24'].command], [`node ${process.versions.node.split('.')[0]} (this process)`, process.execPath]]) {
  console.log(`\n== ${name} ==`);
  const run = spawnSync(command, [bench], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    console.error(`the benchmark failed on ${name} (exit ${run.status ?? run.signal})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
