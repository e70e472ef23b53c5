// `pnpm bench`: the client benchmark (bench/client.bench.mjs) on Node 24, then Node 22 (both from
// @forms-api/runtimes), then the Node running this script (the oldest supported), each with its
// verdict against the limit for `client.forms.get` against openapi-fetch alone, and a summary of
// the three runtimes; then the memory of a 10,000-submission walk on Node 24, in a process of its own.
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

const runs = [
  { name: 'Node 24', command: runtimes['node 24'].command },
  { name: 'Node 22', command: runtimes['node 22'].command },
  { name: `Node ${process.versions.node.split('.')[0]}`, command: process.execPath },
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

const loadAtStart = loadavg()[0];
const summary = [];
for (const run of runs) {
  console.log(`\n=== ${run.name} ===`);
  const result = await runBench(run.name, run.command, []);
  if (!result) throw new Error(`${run.name}: the benchmark printed no result`);
  summary.push({ run, result });
}

// The machine, for whoever compares these figures with another run's.
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`;
console.log(
  `\nSummary on ${machine}: each runtime's figures from its own run; µs per request are medians of the rounds, the ratio the median of each round's ratio (measured in the same round):\n`,
);
const us = (n) => `${n.toFixed(0)} µs`;
console.table(
  summary.map(({ run, result }) => ({
    runtime: `${run.name} (${result.node})`,
    'raw fetch': us(result.raw),
    'openapi-fetch alone': us(result.openapiFetch),
    'client.forms.get': us(result.helper),
    'forms.get vs openapi-fetch alone': `${result.ratio.toFixed(3)}×`,
    limit: `≤ ${result.limit.toFixed(2)}×`,
    verdict: result.verdict,
  })),
);

console.log('\n=== Memory, Node 24 ===');
await runBench('Node 24 (memory)', runtimes['node 24'].command, ['--memory']);
