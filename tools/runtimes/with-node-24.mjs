#!/usr/bin/env node
// with-node-24 <command> [args…]: runs the command with Node 24 (this package's) first on PATH, so
// every `node` it starts, and every `#!/usr/bin/env node` tool (pnpm, turbo's tasks, tsc, vitest,
// Prism), is Node 24. `pnpm test` runs under it: the current LTS runs the lane in about a quarter
// less CPU than Node 20, which stays proven by the runs on `otherNodes()` and by the main job.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { delimiter, dirname } from 'node:path';
import { assertRuntimesInstalled, runtimes } from './index.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-node-24 <command> [args…]');
  process.exit(2);
}
assertRuntimesInstalled();
const PATH = `${dirname(runtimes['node 24'].command)}${delimiter}${process.env.PATH ?? ''}`;
// The Node binary from the npm registry trusts only the CAs it bundles, where a distribution's
// Node (or npm, through the `cafile` of the global npmrc found beside that Node) trusts the
// system's: without this, npm and pnpm behind a TLS-inspecting proxy fail with
// SELF_SIGNED_CERT_IN_CHAIN and retry for minutes. turbo.json passes it to every task; Node 20
// ignores it.
const env = { ...process.env, PATH, NODE_USE_SYSTEM_CA: '1' };
const child = spawn(command, args, { stdio: 'inherit', env });
// Ctrl-C and a closed terminal signal the whole group, the command included: wait for it to end.
// A SIGTERM sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGHUP']) process.on(signal, () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('error', (error) => {
  console.error(`with-node-24: could not start ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
