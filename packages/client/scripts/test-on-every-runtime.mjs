// Runs the client on every runtime it claims beyond the Node running the main suite: on the other
// Nodes of 20.19.0, 22 and 24 the test files whose outcome rests on the runtime, and a smoke test
// (pagination with filters, a typed 404, token redaction) of the built client on Bun and Deno
// against a local node:http server.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { assertRuntimesInstalled, runtimeEnv, runtimes, vitestOnOtherNodes } from '@forms-api/runtimes';

assertRuntimesInstalled();
const packageDir = fileURLToPath(new URL('..', import.meta.url));

// What the runtime decides: loading the builds (require of ESM, two module copies), fetch and its
// bodies, streams and redirects, timers, AbortSignal and the GC. The other files test the client's
// own logic (redaction, retry decisions, pagination, pacing on a fake clock): the same code on
// every Node, run once by the main suite.
const ON_EVERY_NODE = [
  'dist-works-from-esm-and-cjs',
  'errors-are-recognised-across-module-copies',
  'broken-bodies-are-retried',
  'download-file-streams-and-never-sends-the-token',
  'redirects-keep-no-secret-in-err-url',
  'retries-resend-identical-bodies',
  'timeouts-apply-to-every-attempt',
  'timeouts-survive-garbage-collection',
  'a-streamed-body-follows-the-callers-signal-whatever-the-gc-does',
  'cancellation-is-aborted-never-retried',
].map((name) => `test/${name}.test.ts`);

let failed = vitestOnOtherNodes(packageDir, ON_EVERY_NODE);

// Ten submissions, newest first, served with the filters checked on every page.
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (req.headers.authorization !== 'Bearer 1|smoke-token-for-runtime-tests-0000000000')
    return res.writeHead(401).end('{"message":"Unauthenticated."}');
  if (
    url.pathname === '/open/forms/7/submissions' &&
    url.searchParams.get('status') === 'completed' &&
    url.searchParams.get('search') === 'jane'
  ) {
    const perPage = Number(url.searchParams.get('per_page'));
    const page = Number(url.searchParams.get('page') ?? 1);
    const ids = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].slice((page - 1) * perPage, page * perPage);
    const lastPage = Math.ceil(10 / perPage);
    const link = (p) => `http://127.0.0.1/open/forms/7/submissions?page=${p}`;
    const data = ids.map((id) => ({
      data: { status: 'completed', created_at: '2025-01-01 00:00:00', id },
      completion_time: null,
      form_id: 7,
      id,
    }));
    const body = {
      data,
      links: {
        first: link(1),
        last: link(lastPage),
        prev: page > 1 ? link(page - 1) : null,
        next: page < lastPage ? link(page + 1) : null,
      },
      meta: {
        current_page: page,
        from: ids.length ? (page - 1) * perPage + 1 : null,
        last_page: lastPage,
        links: [],
        path: link(1).split('?')[0],
        per_page: perPage,
        to: ids.length ? (page - 1) * perPage + ids.length : null,
        total: 10,
      },
    };
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  res
    .writeHead(404, { 'content-type': 'application/json' })
    .end('{"message":"No query results for model [App\\\\Models\\\\Forms\\\\Form] 404"}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const smoke = fileURLToPath(new URL('../test/runtimes/smoke.mjs', import.meta.url));
try {
  for (const name of ['bun', 'deno']) {
    await new Promise((resolve) => setImmediate(resolve));
    // execFileSync would block this process's event loop and so the server: run asynchronously.
    await new Promise((resolve) => {
      import('node:child_process').then(({ execFile }) =>
        execFile(
          runtimes[name].command,
          [...runtimes[name].args, smoke, baseUrl],
          { env: { ...process.env, ...runtimeEnv } },
          (error, stdout, stderr) => {
            if (error) {
              failed++;
              console.error(`${name} smoke FAILED\n${stdout}${stderr}`);
            } else console.log(stdout.trim());
            resolve();
          },
        ),
      );
    });
  }
} finally {
  server.close();
}
if (failed > 0) process.exit(1);
