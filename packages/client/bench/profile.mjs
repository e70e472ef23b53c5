// Where the time of a call goes: runs N sequential GETs with raw fetch, openapi-fetch alone and
// `client.forms.get` (dist), each in its own process under --cpu-prof, and prints the CPU time
// per request of each by where it was spent (the client, openapi-fetch, undici, web streams, GC…)
// side by side, with what the client adds to openapi-fetch alone. For finding overhead, not for
// claims: the benchmark is `pnpm bench`.
// Usage: node bench/profile.mjs [node binary (default: Node 24)] [requests (default: REQUESTS or 20,000)]
//   (pnpm bench:profile)
import { execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--loop') {
  // Child: one loop, profiled by the parent's --cpu-prof.
  const [, , , mode, count] = process.argv;
  const { createFormsClient } = await import('../dist/index.js');
  const { default: createClient } = await import('openapi-fetch');
  const server = fork(fileURLToPath(new URL('./server.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [port] = await once(server.stdout, 'data');
  const baseUrl = `http://127.0.0.1:${String(port).trim()}`;
  const client = createFormsClient({ baseUrl, token: 'bench|token' });
  const headers = { authorization: 'Bearer bench|token', accept: 'application/json', 'user-agent': 'bench' };
  const plain = createClient({ baseUrl, headers });
  for (let i = 0; i < Number(count); i++) {
    if (mode === 'raw') await (await fetch(`${baseUrl}/open/forms/1`, { headers })).json();
    else if (mode === 'openapi-fetch') await plain.GET('/open/forms/{form}', { params: { path: { form: 1 } } });
    else await client.forms.get(1);
  }
  server.kill();
  process.exit(0);
}

const { runtimes } = await import('@forms-api/runtimes');
const node = process.argv[2] ?? runtimes['node 24'].command;
// A count as the second argument, or REQUESTS (a quicker profile for a smoke run, as the README test's).
const requests = Number(process.argv[3] ?? process.env.REQUESTS ?? 20_000);
if (!Number.isInteger(requests) || requests < 1) {
  console.error(
    `bench:profile: the request count must be a whole number of at least 1, not ${JSON.stringify(process.argv[3] ?? process.env.REQUESTS)}`,
  );
  process.exit(2);
}

const CATEGORIES = [
  ['@forms-api/client', /client\/dist\//],
  ['openapi-fetch', /openapi-fetch/],
  ['undici (fetch)', /undici/],
  ['web streams', /webstreams/],
  ['node streams / net', /internal\/(streams|stream_base|net)|node:net|node:stream/],
  ['events / abort / timers', /event_target|abort_controller|timers|node:events/],
  ['garbage collection', /^\(garbage collector\)/],
  ['idle (waiting for the server)', /^\(idle\)/],
];

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id).callFrame;
    const where = frame.url || `(${frame.functionName.replace(/[()]/g, '')})`;
    const category = CATEGORIES.find(([, re]) => re.test(where))?.[0] ?? 'other (native, V8, bench loop)';
    totals.set(category, (totals.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

const results = {};
// The client first: its line below is the first sign that the profile of a call works.
for (const mode of ['client', 'openapi-fetch', 'raw']) {
  const dir = mkdtempSync(join(tmpdir(), 'client-profile-'));
  execFileSync(node, ['--cpu-prof', `--cpu-prof-dir=${dir}`, self, '--loop', mode, String(requests)], {
    stdio: 'inherit',
  });
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  results[mode] = summarise(join(dir, file));
  rmSync(dir, { recursive: true, force: true });
  console.log(`${mode}: ${requests} requests profiled`);
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const names = [...new Set([...CATEGORIES.map(([n]) => n), 'other (native, V8, bench loop)'])];
const perRequest = (mode, name) => (results[mode].get(name) ?? 0) / requests;
console.log(`\nCPU profile, µs per request (${requests} sequential GET /open/forms/1 each), Node ${version}:\n`);
console.table(
  names.map((name) => ({
    where: name,
    'raw fetch': perRequest('raw', name).toFixed(1),
    'openapi-fetch alone': perRequest('openapi-fetch', name).toFixed(1),
    'client.forms.get': perRequest('client', name).toFixed(1),
    'Δ forms.get − openapi-fetch': (perRequest('client', name) - perRequest('openapi-fetch', name)).toFixed(1),
  })),
);
