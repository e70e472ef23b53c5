// Verifications per second for 1 KiB, 64 KiB and 1 MiB bodies: this package's Node and Web
// Crypto builds against raw node:crypto (the floor) and @octokit/webhooks-methods (the nearest
// peer), in one run, printed as ratios to the floor. Run after `pnpm build`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import * as nodeBuild from '../dist/node.js';
import * as webBuild from '../dist/web.js';

const SECRET = 'whsec_1234567890abcdefghijklmnop';
const SIZES = [
  ['1 KiB', 1024],
  ['64 KiB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
];
const MIN_TIME_MS = Number(process.env.BENCH_MS ?? 300);

function bodyOf(size) {
  const text = JSON.stringify({ form_id: 1, form_title: 'Bench', submission: { text: 'x'.repeat(Math.max(0, size - 64)) }, submission_id: 2 });
  return Buffer.from(text.slice(0, size));
}

async function measure(fn) {
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  let ops = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_TIME_MS) {
    for (let i = 0; i < 20; i++) await fn();
    ops += 20;
    elapsed = performance.now() - started;
  }
  return (ops / elapsed) * 1000;
}

const rows = [];
for (const [label, size] of SIZES) {
  const body = bodyOf(size);
  const text = body.toString('utf8');
  const header = await nodeBuild.sign(SECRET, body);
  const octokitSignature = header; // same scheme: sha256=<hex>
  const webVerifier = webBuild.createVerifier({ secret: SECRET });
  const cases = {
    'node:crypto floor': async () => {
      const expected = createHmac('sha256', SECRET).update(body).digest();
      const given = Buffer.from(header.slice(7), 'hex');
      if (!timingSafeEqual(expected, given)) throw new Error('floor failed');
    },
    'this package, Node build': async () => {
      if (!(await nodeBuild.verify(SECRET, body, header))) throw new Error('node build failed');
    },
    'this package, Web Crypto build': async () => {
      if (!(await webBuild.verify(SECRET, body, header))) throw new Error('web build failed');
    },
    'this package, Web Crypto createVerifier': async () => {
      if (!(await webVerifier.verify(body, header))) throw new Error('web verifier failed');
    },
    '@octokit/webhooks-methods verify': async () => {
      if (!(await octokitVerify(SECRET, text, octokitSignature))) throw new Error('octokit failed');
    },
  };
  // Interleaved rounds, best of three per case, so a GC pause or JIT tier-up lands on no one case.
  const results = {};
  for (let round = 0; round < 3; round++) {
    for (const [name, fn] of Object.entries(cases)) results[name] = Math.max(results[name] ?? 0, await measure(fn));
  }
  const floor = results['node:crypto floor'];
  for (const [name, opsPerSecond] of Object.entries(results)) rows.push({ size: label, implementation: name, 'verifications/s': Math.round(opsPerSecond), 'vs floor': `${(opsPerSecond / floor).toFixed(2)}x` });
}

console.log(`webhook-verify benchmark (Node ${process.version}, best of 3 interleaved rounds of ${MIN_TIME_MS} ms per case)`);
console.table(rows);
const nodeRows = rows.filter((r) => r.implementation === 'this package, Node build');
const worst = Math.min(...nodeRows.map((r) => Number.parseFloat(r['vs floor'])));
console.log(`Node build at worst ${worst.toFixed(2)}x the floor (target >= 0.90x).`);
