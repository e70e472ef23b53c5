// Verifications per CPU-second on the runtime running this file (Node, Bun or Deno), for 1 KiB,
// 64 KiB and 1 MiB bodies: every HMAC primitive the runtime offers (the fastest is the limit)
// beside one build of this package, `verify(secret, …)` and `createVerifier`. Usage:
// `verify-on-this-runtime.mjs resolved|web`: the build the package name resolves to here, or the
// Web Crypto build. One build per process, as in an application, so neither skews the other's
// JIT feedback. Prints one JSON object; bench/verify.bench.mjs runs it on every runtime.
// Time is this process's CPU time (process.cpuUsage: every thread, so Web Crypto's worker threads
// count too), not wall time: on a shared machine other processes then distort far less. Cases
// run interleaved in short slices, several rounds, best slice kept, so a burst (GC, JIT tier-up,
// a neighbour's cache pressure) lands on no one case.
import { Buffer } from 'node:buffer';
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import process from 'node:process';

const which = process.argv[2] === 'web' ? 'web' : 'resolved';
const build = which === 'web' ? await import('../dist/web.js') : await import('@forms-api/webhook-verify');
const buildName =
  which === 'web'
    ? 'Web Crypto'
    : import.meta.resolve('@forms-api/webhook-verify').endsWith('/dist/node.js')
      ? 'node:crypto'
      : 'Web Crypto';

const SECRET = 'whsec_1234567890abcdefghijklmnop';
const SIZES = [
  ['1 KiB', 1024],
  ['64 KiB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
].filter(([label]) => !process.env.BENCH_SIZES || process.env.BENCH_SIZES.split(',').includes(label));
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const runtime = globalThis.Bun
  ? `Bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `Deno ${globalThis.Deno.version.deno}`
    : `Node ${process.version.slice(1)}`;

let octokitVerify;
if (which === 'resolved') {
  try {
    ({ verify: octokitVerify } = await import('@octokit/webhooks-methods'));
  } catch {
    // Not resolvable on this runtime: its column stays empty.
  }
}

function bodyOf(size) {
  const text = JSON.stringify({
    form_id: 1,
    form_title: 'Bench',
    submission: { text: 'x'.repeat(Math.max(0, size - 64)) },
    submission_id: 2,
  });
  return new Uint8Array(Buffer.from(text.slice(0, size)));
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Operations per CPU-second over one slice of at least SLICE_MS of CPU time. */
async function slice(fn) {
  let ops = 0;
  const started = cpuMs();
  let elapsed = 0;
  while (elapsed < SLICE_MS) {
    for (let i = 0; i < 10; i++) await fn();
    ops += 10;
    elapsed = cpuMs() - started;
  }
  return (ops / elapsed) * 1000;
}

const key = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(SECRET),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['sign', 'verify'],
);
const secretKey = createSecretKey(Buffer.from(SECRET));
const fail = (name) => {
  throw new Error(`${name} failed to verify`);
};
const results = [];

for (const [label, size] of SIZES) {
  const body = bodyOf(size);
  const header = await build.sign(SECRET, body);
  const hex = header.slice(7);
  const verifier = build.createVerifier({ secret: SECRET });
  // Each primitive checks the header's digest as a receiver must: MAC, then a constant-time
  // compare (of raw digests, or of hex digests as bytes, whichever is faster on the runtime).
  const sameHex = (digestHex) => timingSafeEqual(Buffer.from(digestHex, 'latin1'), Buffer.from(hex, 'latin1'));
  const primitives = {
    'node:crypto createHmac, raw digests': () =>
      timingSafeEqual(createHmac('sha256', SECRET).update(body).digest(), Buffer.from(hex, 'hex')) ||
      fail('createHmac'),
    'node:crypto createHmac, hex digests': () =>
      sameHex(createHmac('sha256', SECRET).update(body).digest('hex')) || fail('createHmac hex'),
    'node:crypto createHmac(KeyObject)': () =>
      timingSafeEqual(createHmac('sha256', secretKey).update(body).digest(), Buffer.from(hex, 'hex')) ||
      fail('createHmac(KeyObject)'),
    'crypto.subtle.verify, cached key': async () =>
      (await crypto.subtle.verify('HMAC', key, Buffer.from(hex, 'hex'), body)) || fail('subtle.verify'),
    'crypto.subtle.sign, cached key': async () =>
      (await crypto.subtle.sign('HMAC', key, body)).byteLength === 32 || fail('subtle.sign'),
  };
  if (globalThis.Bun) {
    const { CryptoHasher } = globalThis.Bun;
    const keyed = new CryptoHasher('sha256', SECRET);
    primitives['Bun.CryptoHasher'] = () =>
      sameHex(new CryptoHasher('sha256', SECRET).update(body).digest('hex')) || fail('Bun.CryptoHasher');
    primitives['Bun.CryptoHasher, keyed copy'] = () =>
      sameHex(keyed.copy().update(body).digest('hex')) || fail('Bun.CryptoHasher copy');
  }
  // The promise-returning cases are timed as returned (slice() awaits each result, as it awaits
  // the primitives' booleans); the warm-up checks that they verify.
  const ours = {
    'verify(secret, …)': () => build.verify(SECRET, body, header),
    'createVerifier().verify': () => verifier.verify(body, header),
  };
  const text = Buffer.from(body).toString('utf8');
  const peers = octokitVerify ? { '@octokit/webhooks-methods verify': () => octokitVerify(SECRET, text, header) } : {};
  const cases = { ...primitives, ...ours, ...peers };
  for (const [name, fn] of Object.entries(cases)) for (let i = 0; i < 30; i++) if ((await fn()) !== true) fail(name); // warm-up and check
  const best = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(cases)) best[name] = Math.max(best[name] ?? 0, await slice(fn));
  }
  const [fastestName, fastest] = Object.keys(primitives)
    .map((name) => [name, best[name]])
    .sort((a, b) => b[1] - a[1])[0];
  results.push({
    size: label,
    fastestName,
    fastest,
    subtleSign: best['crypto.subtle.sign, cached key'],
    opsPerSecond: best,
  });
}

console.log(JSON.stringify({ runtime, build: buildName, sliceMs: SLICE_MS, rounds: ROUNDS, results }));
