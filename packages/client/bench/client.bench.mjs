// Benchmark of the built client (dist) against one local HTTP server (a child process):
//  1. sequential GET throughput, client vs raw fetch (target: client overhead ≤ 10%);
//  2. memory while iterating 10,000 submissions 100 per page, streamed vs collected into an
//     array (target: streaming is bounded by about two pages, not by the total).
// Run with `pnpm bench` (node --expose-gc).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createFormsClient } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (pnpm bench does).');
  process.exit(1);
}

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TOKEN = 'bench|token';

const child = fork(fileURLToPath(new URL('./server.mjs', import.meta.url)), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const [chunk] = await once(child.stdout, 'data');
const baseUrl = `http://127.0.0.1:${String(chunk).trim()}`;

const client = createFormsClient({ baseUrl, token: TOKEN });
const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };

async function timeRaw(n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${baseUrl}/open/forms/1`, { headers });
    if (!res.ok) throw new Error(`raw ${res.status}`);
    await res.json();
  }
  return performance.now() - start;
}

// The same, with the per-attempt timeout signal the client puts on every request.
async function timeRawTimeout(n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${baseUrl}/open/forms/1`, { headers, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`raw ${res.status}`);
    await res.json();
  }
  return performance.now() - start;
}

const noTimeout = createFormsClient({ baseUrl, token: TOKEN, timeoutMs: Infinity });
async function timeClientNoTimeout(n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await noTimeout.forms.get(1);
  return performance.now() - start;
}

async function timeClient(n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await client.forms.get(1);
  return performance.now() - start;
}

async function timeClientRaw(n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const { error } = await client.GET('/open/forms/{form}', { params: { path: { form: 1 } } });
    if (error) throw new Error('raw surface failed');
  }
  return performance.now() - start;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Memory first, on a quiet heap. Then throughput, in short interleaved rounds so that load from
// other processes on the machine hits all three alike; ratios are taken per round.
// Memory: live heap is sampled after a forced GC at every page boundary (what the walk retains);
// RSS is sampled without forcing anything.
// fetch releases some buffers through FinalizationRegistry callbacks, which run after a GC on
// a later tick: collect, yield, repeat, before taking a baseline.
async function settle() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function measure(label, walk) {
  await settle();
  const base = process.memoryUsage();
  let peakHeap = -Infinity;
  let peakRss = -Infinity;
  const sample = () => {
    gc();
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed - base.heapUsed);
    peakRss = Math.max(peakRss, m.rss - base.rss);
  };
  const items = await walk(sample);
  return { label, items, peakHeap, peakRss };
}

// Warm the page-walking code so that JIT and connection setup are not counted as retained.
{
  let n = 0;
  for await (const _ of client.submissions.pages(42, { perPage: 100, status: 'all' })) if (++n === 3) break;
}

const walkStreamed = (label) =>
  measure(label, async (sample) => {
    let count = 0;
    for await (const s of client.submissions.iterate(42, { perPage: 100, status: 'all' })) {
      if (s.id === 0) throw new Error('unreachable');
      if (++count % 100 === 0) sample();
    }
    return count;
  });
// The first full walk also compiles and optimises the code paths it runs (code and type
// feedback live on the heap too); the second shows what a walk retains.
const firstWalk = await walkStreamed('iterate() (streamed), first walk');
const streamed = await walkStreamed('iterate() (streamed), warm');

// Reference: the same walk with raw fetch, one page at a time, nothing kept.
const rawStreamed = await measure('raw fetch page by page (reference)', async (sample) => {
  let count = 0;
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/open/forms/42/submissions?page=${page}&per_page=100&status=all`, { headers });
    const body = await res.json();
    count += body.data.length;
    sample();
    if (body.meta.current_page >= body.meta.last_page) break;
  }
  return count;
});

const collected = await measure('all pages collected in an array (baseline)', async (sample) => {
  const all = [];
  for await (const s of client.submissions.iterate(42, { perPage: 100, status: 'all' })) {
    all.push(s);
    if (all.length % 100 === 0) sample();
  }
  return all.length;
});

// The retained size of one page, for scale: what collecting retained, per page.
const pageBytes = collected.peakHeap / (collected.items / 100);

// Warm up connections and JIT.
await timeRaw(300);
await timeClient(300);
await timeClientRaw(300);
await timeRawTimeout(300);
await timeClientNoTimeout(300);
const rawTimeoutRatio = [];
const noTimeoutRatio = [];
const raw = [];
const helperRatio = [];
const rawSurfaceRatio = [];
const helper = [];
const rawSurface = [];
const CHUNK = 200;
for (let r = 0; r < (ROUNDS * REQUESTS) / CHUNK; r++) {
  const a = await timeRaw(CHUNK);
  const b = await timeClient(CHUNK);
  const c = await timeClientRaw(CHUNK);
  const d = await timeRawTimeout(CHUNK);
  const e = await timeClientNoTimeout(CHUNK);
  rawTimeoutRatio.push(d / a);
  noTimeoutRatio.push(e / a);
  raw.push(a);
  helper.push(b);
  rawSurface.push(c);
  helperRatio.push(b / a);
  rawSurfaceRatio.push(c / a);
}
const rawMs = median(raw);
const helperMs = median(helper);
const rawSurfaceMs = median(rawSurface);
const rps = (ms) => Math.round((CHUNK / ms) * 1000);

const mb = (b) => `${(b / 1024 / 1024).toFixed(2)} MB`;
console.log(
  `\n@forms-api/client benchmark — Node ${process.version}; ${(ROUNDS * REQUESTS) / CHUNK} interleaved rounds of ${CHUNK} sequential GETs each (medians)\n`,
);
console.table([
  { measure: 'raw fetch: GET /open/forms/1', 'req/s': rps(rawMs), 'µs/request': ((rawMs / CHUNK) * 1000).toFixed(0), 'vs raw fetch': '1.00' },
  { measure: 'client.forms.get(1)', 'req/s': rps(helperMs), 'µs/request': ((helperMs / CHUNK) * 1000).toFixed(0), 'vs raw fetch': median(helperRatio).toFixed(2) },
  { measure: 'raw fetch + AbortSignal.timeout', 'vs raw fetch': median(rawTimeoutRatio).toFixed(2) },
  { measure: 'client.forms.get(1), timeoutMs: Infinity', 'vs raw fetch': median(noTimeoutRatio).toFixed(2) },
  { measure: "client.GET('/open/forms/{form}')", 'req/s': rps(rawSurfaceMs), 'µs/request': ((rawSurfaceMs / CHUNK) * 1000).toFixed(0), 'vs raw fetch': median(rawSurfaceRatio).toFixed(2) },
]);
console.log(`\nMemory over 10,000 submissions, 100 per page (one page retained ≈ ${mb(pageBytes)}; live heap sampled after a forced GC at every page):\n`);
console.table(
  [firstWalk, streamed, rawStreamed, collected].map((m) => ({
    walk: m.label,
    items: m.items,
    'peak live heap Δ': mb(m.peakHeap),
    'in pages': (m.peakHeap / pageBytes).toFixed(1),
    'peak RSS Δ': mb(m.peakRss),
  })),
);
const overhead = median(helperRatio) - 1;
console.log(
  `\nclient overhead vs raw fetch: ${(overhead * 100).toFixed(1)}% (target ≤ 10%); streamed peak: ${(streamed.peakHeap / pageBytes).toFixed(1)} pages (target ≈ 2).`,
);
child.disconnect();
child.kill();
