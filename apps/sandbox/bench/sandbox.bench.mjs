// Listing 10,000 submissions with and without `search` (autocannon, 10 connections), side by side
// in one run with the target: search within 2x the plain list's requests per second. Then webhook
// dispatch latency to a local receiver. Run after `pnpm build`. Figures from a shared machine are
// noisy; the ratio, measured in the same run, is the figure to compare with the limit.
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { defaultSeed, startSandbox } from '../dist/index.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
/** The target: a search costs at most this many plain lists. */
const SEARCH_LIMIT_RATIO = 2;

const sandbox = await startSandbox({
  seed: defaultSeed({ submissionsPerForm: 10_000 }),
  rateLimit: false,
  allowPrivateWebhooks: true,
});
const headers = { authorization: `Bearer ${sandbox.tokens.all}` };

async function load(path) {
  const result = await autocannon({
    url: `${sandbox.baseUrl}${path}`,
    headers,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { reqPerS: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

// Each search row says how many submissions match, so a fast search that finds nothing cannot pass for one that works.
const total = async (path) => (await (await fetch(`${sandbox.baseUrl}${path}`, { headers })).json()).meta.total;
const plainPath = '/open/forms/12/submissions?per_page=100';
const scenarios = [
  { scenario: 'list, page 1 of 100', path: plainPath },
  { scenario: 'list with search (value match)', path: `${plainPath}&search=travel` },
  { scenario: 'list with search (no match, full scan)', path: `${plainPath}&search=zzzz-no-match` },
];

// Warm up once (search texts are made on the first search; JIT), then measure.
for (const { path } of scenarios) await fetch(`${sandbox.baseUrl}${path}`, { headers }).then((r) => r.arrayBuffer());
const rows = [];
let plain;
for (const { scenario, path } of scenarios) {
  const figures = await load(path);
  plain ??= figures;
  const ratio = plain.reqPerS / figures.reqPerS;
  rows.push({
    scenario,
    matches: await total(path),
    'req/s': Math.round(figures.reqPerS),
    'p50 ms': figures.p50,
    'p99 ms': figures.p99,
    'plain / this': Number(ratio.toFixed(2)),
    limit: path === plainPath ? '' : `<= ${SEARCH_LIMIT_RATIO}`,
    verdict: path === plainPath ? '' : ratio <= SEARCH_LIMIT_RATIO ? 'within' : 'OVER',
  });
}

// Dispatch latency: time from POST /forms/:form/answer to the receiver having the request.
let received;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received?.();
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const form = await (await fetch(`${sandbox.baseUrl}/open/forms/12`, { headers })).json();
const nameField = form.properties.find((p) => p.name === 'Full name').id;
await fetch(`${sandbox.baseUrl}/open/forms/12/integrations`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: `http://127.0.0.1:${receiver.address().port}/hook`, webhook_secret: 'whsec_bench_secret_123' },
  }),
});
const latencies = [];
for (let i = 0; i < 300; i++) {
  const started = performance.now();
  const arrived = new Promise((r) => (received = r));
  await fetch(`${sandbox.baseUrl}/forms/12/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ [nameField]: `Bench ${i}` }),
  });
  await arrived;
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
const pct = (p) =>
  Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2));
rows.push({
  scenario: 'answer -> signed webhook at the receiver (300 sequential)',
  matches: '',
  'req/s': Math.round(1000 / (latencies.reduce((a, b) => a + b, 0) / latencies.length)),
  'p50 ms': pct(50),
  'p99 ms': pct(99),
  'plain / this': '',
  limit: '',
  verdict: '',
});

console.log(
  `sandbox benchmark: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${DURATION_S} s per load scenario, ${CONNECTIONS} connections, form of 10,000 submissions`,
);
console.table(rows);
receiver.close();
await sandbox.close();
