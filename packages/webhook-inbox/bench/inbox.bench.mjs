// Accepted deliveries per second and p50/p99 time to the answer, for the inbox (verify, store in
// Redis, 202) with 1 and 2 receiver processes, side by side with the plain webhook-verify listener
// (verify, 202, no Redis) in the same run, with 1 KiB and 64 KiB bodies; the p99 is printed next
// to the service's 5 s budget. Every request is a distinct signed delivery (no deduplication hit).
// Redis runs with AOF (appendfsync everysec). Best of BENCH_ROUNDS (3) interleaved rounds per row.
// Run after `pnpm build`; needs redis-server (installed by the bench script when missing).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { startRedisServer } from '@forms-api/redis-server';

const SECRET = 'whsec_bench_secret_0123456789';
const BUDGET_MS = 5_000; // the service's timeout for one delivery
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// Rounds interleave the setups, and each row keeps its best round: a burst of other work on a
// shared machine then spoils one round of one setup, not the comparison.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = [
  { label: '1 KiB', bytes: 1024, requests: Number(process.env.BENCH_REQUESTS_1K ?? 8_000) },
  { label: '64 KiB', bytes: 64 * 1024, requests: Number(process.env.BENCH_REQUESTS_64K ?? 2_000) },
];
const SETUPS = [
  { label: 'webhook-verify, no Redis', mode: 'plain', processes: 1 },
  { label: 'inbox', mode: 'inbox', processes: 1 },
  { label: 'webhook-verify, no Redis', mode: 'plain', processes: 2 },
  { label: 'inbox', mode: 'inbox', processes: 2 },
];

const children = new Set();
const cleanup = () => {
  for (const child of children) child.kill('SIGKILL');
};
process.on('exit', cleanup);

function waitForLine(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output}`)), 20_000);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}):\n${output}`)));
  });
}

const redis = await startRedisServer({ appendonly: true, appendfsync: 'everysec' });
const redisUrl = redis.url;
const admin = new Redis(redis.port, '127.0.0.1');

async function startReceiver(mode, processes) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./receiver.mjs', import.meta.url)), mode, String(processes), redisUrl],
    {
      env: { ...process.env, BENCH_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  const [, port] = await waitForLine(child, /ready (\d+)/, `${mode} receiver`);
  return {
    url: `http://127.0.0.1:${port}/webhooks/forms`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }).finally(() => children.delete(child)),
  };
}

function bodyOf(bytes, id) {
  const head = `{"form_id":11,"form_title":"Bench","form_slug":"bench-a1b2c3","submission":{"Message":"`;
  const tail = `"},"data":{},"message":"Please do not use the \`submission\` field. It is deprecated and will be removed in the future.","submission_id":${id}}`;
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

/**
 * Distinct deliveries, signed before the run so the load generator only sends (signing 64 KiB
 * bodies on the fly made it the bottleneck). Redis is flushed between setups, so each setup can
 * send the same set without meeting a duplicate.
 */
function signedDeliveries(bytes, count) {
  return Array.from({ length: count }, (_, i) => {
    const body = bodyOf(bytes, i + 1);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-webhook-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
    };
  });
}

async function load(url, deliveries, from, amount) {
  let next = from;
  const started = performance.now();
  let lastResponse = started;
  // autocannon settles `amount` runs on its once-a-second tick, so its own duration is whole
  // seconds; the rate is taken from the first request to the last response instead.
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        amount,
        requests: [
          {
            setupRequest(request) {
              const delivery = deliveries[next++];
              request.body = delivery.body;
              request.headers = delivery.headers;
              return request;
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', () => {
      lastResponse = performance.now();
    });
  });
  const seconds = (lastResponse - started) / 1000;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { ...result, acceptedPerSecond: result['2xx'] / seconds };
}

const best = new Map(); // "size|setup" -> best row so far
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const size of SIZES) {
      const warmUp = Math.min(1_000, size.requests);
      const deliveries = signedDeliveries(size.bytes, warmUp + size.requests);
      for (const setup of SETUPS) {
        await admin.flushall();
        const receiver = await startReceiver(setup.mode, setup.processes);
        try {
          await load(receiver.url, deliveries, 0, warmUp);
          const result = await load(receiver.url, deliveries, warmUp, size.requests);
          // Every 202 of the inbox is a job in Redis: checked, not assumed.
          const stored =
            setup.mode === 'inbox' ? await admin.eval(`return #redis.call('keys', '{bench}:bench:wh-*')`, 0) : '-';
          if (setup.mode === 'inbox' && stored !== warmUp + size.requests)
            throw new Error(`${stored} jobs stored for ${warmUp + size.requests} deliveries answered 202`);
          const row = {
            body: size.label,
            receiver: `${setup.label}, ${setup.processes} process${setup.processes > 1 ? 'es' : ''}`,
            'accepted/s': Math.round(result.acceptedPerSecond),
            'p50 ms': result.latency.p50,
            'p99 ms': result.latency.p99,
            'p99 / 5 s budget': `${((result.latency.p99 / BUDGET_MS) * 100).toFixed(2)} %`,
            'jobs stored': stored,
          };
          const key = `${size.label}|${row.receiver}`;
          if (!best.has(key) || best.get(key)['accepted/s'] < row['accepted/s']) best.set(key, row);
        } finally {
          await receiver.stop();
        }
      }
    }
  }
} finally {
  admin.disconnect();
  cleanup();
  await redis.close();
}
const rows = [...best.values()];

console.log(
  `webhook-inbox benchmark: Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()[0].toFixed(1)}, ${CONNECTIONS} connections, best of ${ROUNDS} interleaved rounds, Redis with AOF everysec on the same machine; every request a distinct signed delivery`,
);
console.table(rows);
for (const size of SIZES) {
  const of = (label, processes) =>
    rows.find(
      (r) => r.body === size.label && r.receiver.startsWith(label) && r.receiver.includes(`, ${processes} process`),
    );
  for (const processes of [1, 2]) {
    const plain = of('webhook-verify', processes);
    const inbox = of('inbox', processes);
    console.log(
      `${size.label}, ${processes} process${processes > 1 ? 'es' : ''}: inbox accepts ${(inbox['accepted/s'] / plain['accepted/s']).toFixed(2)}x the deliveries/s of the plain listener; p99 ${inbox['p99 ms']} ms vs ${plain['p99 ms']} ms, budget ${BUDGET_MS} ms`,
    );
  }
}
