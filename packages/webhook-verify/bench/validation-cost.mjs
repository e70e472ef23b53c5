// `node bench/validation-cost.mjs` (after `pnpm build`; Node 24 first, then this Node): what checking
// a payload against the schema (`validate: createPayloadValidator()`) costs beside verifying its
// signature, on the spec's example delivery, in the same process: the figures behind the default
// (validation off) stated in the README.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { assertRuntimesInstalled, runtimeEnv, runtimes } from '@forms-api/runtimes';

if (process.argv[2] === 'measure') {
  const { createVerifier, sign } = await import('@forms-api/webhook-verify');
  const { createPayloadValidator } = await import('@forms-api/webhook-verify/validate');
  const secret = 'whsec_bench_0123456789abcdef';
  // The spec's own example delivery, as the service sends it.
  const spec = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
  const examples = spec.webhooks['submission.created'].post.requestBody.content['application/json'].examples;
  const body = Buffer.from(JSON.stringify(Object.values(examples)[0].value));
  const header = await sign(secret, body);
  const plain = createVerifier({ secret });
  const validating = createVerifier({ secret, validate: createPayloadValidator() });
  const perCallMicros = async (fn) => {
    let best = Infinity;
    for (let round = 0; round < 7; round++) {
      const n = 20_000;
      const started = process.cpuUsage();
      for (let i = 0; i < n; i++) await fn();
      const used = process.cpuUsage(started);
      best = Math.min(best, (used.user + used.system) / n);
    }
    return best;
  };
  const compileStarted = performance.now();
  createPayloadValidator();
  const compileMs = performance.now() - compileStarted;
  const verify = await perCallMicros(() => plain.verify(body, header));
  const parse = await perCallMicros(() => plain.parseWebhook(body, header));
  const parseValidated = await perCallMicros(() => validating.parseWebhook(body, header));
  console.log(JSON.stringify({ node: process.version, bytes: body.length, verify, parse, parseValidated, compileMs }));
} else {
  assertRuntimesInstalled();
  console.log(
    '| runtime | body | verify (µs/call) | parseWebhook (µs/call) | parseWebhook + validate (µs/call) | validation added | schema compile, once (ms) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const runtime of [runtimes['node 24'], { command: process.execPath, args: [] }]) {
    const out = execFileSync(runtime.command, [...runtime.args, new URL(import.meta.url).pathname, 'measure'], {
      encoding: 'utf8',
      env: { ...process.env, ...runtimeEnv },
    });
    const r = JSON.parse(out.trim().split('\n').at(-1));
    console.log(
      `| Node ${r.node} | ${r.bytes} B | ${r.verify.toFixed(2)} | ${r.parse.toFixed(2)} | ${r.parseValidated.toFixed(2)} | +${(r.parseValidated - r.parse).toFixed(2)} µs (${((r.parseValidated / r.parse - 1) * 100).toFixed(0)}%) | ${r.compileMs.toFixed(1)} |`,
    );
  }
}
