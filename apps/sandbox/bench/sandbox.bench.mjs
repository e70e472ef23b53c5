// Requests per second and p50/p99 latency for listing submissions with and without `search` on a
// form with 10,000 submissions (autocannon, 10 connections), and webhook dispatch latency to a
// local receiver. Baseline figures only: no target yet. Run after `pnpm build`.
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { defaultSeed, startSandbox } from '../dist/index.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const seed = defaultSeed({ submissionsPerForm: 10_000 });
const sandbox = await startSandbox({ seed, rateLimit: false, allowPrivateWebhooks: true });
const headers = { authorization: `Bearer ${sandbox.tokens.all}` };

async function load(title, path) {
  const result = await autocannon({ url: `${sandbox.baseUrl}${path}`, headers, connections: 10, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { scenario: title, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99 };
}

const rows = [];
rows.push(await load('list 10,000 submissions, page 1 of 100', '/open/forms/12/submissions?per_page=100'));
rows.push(await load('list with search (value match)', '/open/forms/12/submissions?per_page=100&search=travel'));
rows.push(await load('list with search (no match, full scan)', '/open/forms/12/submissions?per_page=100&search=zzzz-no-match'));

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
  body: JSON.stringify({ integration_id: 'webhook', status: 'active', data: { webhook_url: `http://127.0.0.1:${receiver.address().port}/hook`, webhook_secret: 'whsec_bench_secret_123' } }),
});
const latencies = [];
for (let i = 0; i < 300; i++) {
  const started = performance.now();
  const arrived = new Promise((r) => (received = r));
  await fetch(`${sandbox.baseUrl}/forms/12/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [nameField]: `Bench ${i}` }) });
  await arrived;
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
rows.push({ scenario: 'answer -> signed webhook at the receiver (300 sequential)', 'req/s': Math.round(1000 / (latencies.reduce((a, b) => a + b, 0) / latencies.length)), 'p50 ms': Number(pct(50)), 'p99 ms': Number(pct(99)) });

console.log(`sandbox benchmark (Node ${process.version}, ${DURATION_S} s per load scenario, 10 connections)`);
console.table(rows);
receiver.close();
await sandbox.close();
