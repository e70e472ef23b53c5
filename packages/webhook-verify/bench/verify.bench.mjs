// `pnpm bench`: runs bench/verify-on-this-runtime.mjs on every runtime the package claims (Node 24
// first, then Node 22, this Node, Bun and Deno), once for the build the package name resolves to
// there and once for the Web Crypto build (the build of Workers and browsers), and prints one
// table of ratios measured in the same process, each beside its limit: the resolved build
// against the fastest HMAC primitive of that runtime, the Web Crypto build against raw
// `crypto.subtle.sign` with a cached key. Run after `pnpm build`.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { assertRuntimesInstalled, runtimeEnv, runtimes } from '@forms-api/runtimes';

assertRuntimesInstalled();
const script = fileURLToPath(new URL('./verify-on-this-runtime.mjs', import.meta.url));
const TARGET = 0.9;
const order = [
  runtimes['node 24'],
  runtimes['node 22'],
  { command: process.execPath, args: [] },
  runtimes.bun,
  runtimes.deno,
];

const measure = (runtime, build) => {
  const output = execFileSync(runtime.command, [...runtime.args, script, build], {
    encoding: 'utf8',
    env: { ...process.env, ...runtimeEnv },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output.trim().split('\n').at(-1));
};
const ratio = (value, limit) => (value / limit).toFixed(2) + 'x';
const rows = [];
const misses = [];
let settings = '';
for (const runtime of order) {
  const resolved = measure(runtime, 'resolved');
  const web = measure(runtime, 'web');
  settings = `${resolved.rounds} interleaved rounds of ${resolved.sliceMs} ms CPU-time slices per case, best slice`;
  resolved.results.forEach((r, i) => {
    const w = web.results[i];
    const checks = [
      ['verify(secret, …)', r.opsPerSecond['verify(secret, …)'], r.fastest],
      ['createVerifier', r.opsPerSecond['createVerifier().verify'], r.fastest],
      ['Web build verify(secret, …) / subtle.sign', w.opsPerSecond['verify(secret, …)'], w.subtleSign],
      ['Web build createVerifier / subtle.sign', w.opsPerSecond['createVerifier().verify'], w.subtleSign],
    ];
    const row = {
      runtime: `${resolved.runtime} (${resolved.build} build)`,
      body: r.size,
      'fastest primitive: ops/s': `${r.fastestName}: ${Math.round(r.fastest).toLocaleString('en-US')}`,
    };
    for (const [column, value, limit] of checks) {
      row[column] = ratio(value, limit) + (value / limit < TARGET ? ' *' : '');
      if (value / limit < TARGET) misses.push(`${row.runtime} ${r.size} ${column}: ${ratio(value, limit)}`);
    }
    const octokit = r.opsPerSecond['@octokit/webhooks-methods verify'];
    row['@octokit/webhooks-methods'] = octokit ? ratio(octokit, r.fastest) : '—';
    rows.push(row);
  });
}

console.log(
  `webhook-verify: verifications per CPU-second, as ratios to each runtime's fastest HMAC primitive (target >= ${TARGET.toFixed(2)}x; * = below)`,
);
console.log(`${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}; ${settings}.`);
console.table(rows);
console.log(
  misses.length === 0
    ? `Every ratio is at or above ${TARGET.toFixed(2)}x.`
    : `Below ${TARGET.toFixed(2)}x:\n  ${misses.join('\n  ')}`,
);
