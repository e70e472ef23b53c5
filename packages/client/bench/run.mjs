// `pnpm bench`: the client benchmark (bench/client.bench.mjs) on Node 24, then Node 22 (both from
// @forms-api/runtimes), then the Node running this script, each with the limit for
// `client.forms.get` against openapi-fetch alone, and a summary of all three side by side; then
// the memory of a 10,000-submission walk on Node 24, in a process of its own.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { assertRuntimesInstalled, runtimes } from '@forms-api/runtimes';

assertRuntimesInstalled();
if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
  console.error('No dist/: run `pnpm build` first (the benchmark measures the built client).');
  process.exit(1);
}
const bench = fileURLToPath(new URL('./client.bench.mjs', import.meta.url));

// The limit of issue 31: forms.get within 1.25× openapi-fetch alone per call, on every runtime,
// met by one request path without tricks (issue 21's 1.05× shaped the code around microseconds
// a service allowing 100 requests a minute never needs).
const runs = [
  { name: 'Node 24', command: runtimes['node 24'].command, limit: 1.25 },
  { name: 'Node 22', command: runtimes['node 22'].command, limit: 1.25 },
  { name: `Node ${process.versions.node.split('.')[0]}`, command: process.execPath, limit: 1.25 },
];

/** Runs the benchmark with `args`, echoing its output; resolves with its BENCH_RESULT line, if any. */
function runBench(name, command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['--expose-gc', bench, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let found;
    let buffered = '';
    child.stdout.on('data', (data) => {
      buffered += data;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        if (line.startsWith('BENCH_RESULT ')) found = JSON.parse(line.slice('BENCH_RESULT '.length));
        else console.log(line);
      }
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(found) : reject(new Error(`${name}: the benchmark exited with ${code}`)),
    );
  });
}

const summary = [];
for (const run of runs) {
  console.log(`\n=== ${run.name} ===`);
  const result = await runBench(run.name, run.command, run.limit ? ['--limit', String(run.limit)] : []);
  if (!result) throw new Error(`${run.name}: the benchmark printed no result`);
  summary.push({ run, result });
}

// The machine, for whoever compares these figures with another run's.
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the end`;
console.log(`\nSummary on ${machine} (each ratio from its own run, measured in the same interleaved rounds):\n`);
console.table(
  summary.map(({ run, result }) => ({
    runtime: `${run.name} (${result.node})`,
    'forms.get vs openapi-fetch alone': `${result.helper.toFixed(3)}×`,
    limit: run.limit ? `≤ ${run.limit.toFixed(2)}×` : '—',
    verdict: run.limit ? (result.helper <= run.limit ? 'met' : 'NOT met') : '',
    'client.GET vs openapi-fetch alone': `${result.rawSurface.toFixed(3)}×`,
    'openapi-fetch alone vs raw fetch': `${result.openapiFetchVsRaw.toFixed(3)}×`,
    'forms.get vs raw fetch': `${result.helperVsRaw.toFixed(3)}×`,
    'CPU µs/request raw → openapi-fetch → forms.get': `${result.rawCpu.toFixed(0)} → ${result.openapiFetchCpu.toFixed(0)} → ${result.helperCpu.toFixed(0)}`,
  })),
);

console.log('\n=== Memory, Node 24 ===');
await runBench('Node 24 (memory)', runtimes['node 24'].command, ['--memory']);
