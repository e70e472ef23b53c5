// Runtime-neutral smoke test of the built client (fetch, URL, AbortSignal only): run by Bun and
// Deno against a node:http server started by scripts/test-on-every-runtime.mjs.
// Usage: <runtime> smoke.mjs <baseUrl>
const baseUrl = (globalThis.Deno ? Deno.args : process.argv.slice(2))[0];
const { createFormsClient, FormsApiError } = await import(new URL('../../dist/index.js', import.meta.url).href);
const runtime = globalThis.Bun
  ? `bun ${Bun.version}`
  : globalThis.Deno
    ? `deno ${Deno.version.deno}`
    : `node ${process.version}`;
const fail = (message) => {
  console.error(`client smoke on ${runtime}: ${message}`);
  throw new Error(message);
};

const client = createFormsClient({
  baseUrl,
  token: '1|smoke-token-for-runtime-tests-0000000000',
  timeoutMs: 5000,
  retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 },
});
const seen = [];
for await (const submission of client.submissions.iterate(7, { status: 'completed', search: 'jane', perPage: 3 }))
  seen.push(submission.id);
if (seen.join(',') !== '10,9,8,7,6,5,4,3,2,1') fail(`iterate returned ${seen.join(',')}`);
try {
  await client.forms.get(404);
  fail('expected a not_found error');
} catch (error) {
  if (!(error instanceof FormsApiError) || error.kind !== 'not_found') fail(`expected not_found, got ${error}`);
  if (JSON.stringify(error).includes('smoke-token')) fail('the token leaked into the error');
}
// The generated method of every operation, called directly.
const failed = await client.operations.getForm({ path: { form: 404 } }).then(
  () => undefined,
  (error) => error,
);
if (!(failed instanceof FormsApiError) || failed.kind !== 'not_found' || failed.operation?.operationId !== 'getForm')
  fail(`expected getForm's not_found, got ${failed}`);
console.log(`client smoke on ${runtime}: 3 passed, 0 failed`);
