// Size budget: bundles dist/index.js the way an app would ship it (minified, openapi-fetch
// included, platform-neutral so a Node built-in would fail the bundle), gzips it and fails over
// budget. esbuild is called directly because size-limit 14 needs Node 22 and we support Node 20.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

// 10 kB until the operations table of @forms-api/types was bundled (2 kB minified, instead of
// paths copied by hand) and the client gained the encoded-token matcher, the response cap, the
// direct helper requests, downloads and onRetry (issues 12-15): 13.83 kB then, most of the growth
// being error messages that name the cause and the fix. Rate-limit pacing (issue 18) added
// 1.5 kB: the pacer, its option checks and the message of a request it gave up on; it cannot be
// shaken out, since `pacing: { requestsPerMinute }` builds one. One request path (issue 21)
// took 0.5 kB off (14.88 kB); the redactor's new encodings and credential names, reading answers
// within the attempt and the plan-refusal hint (issues 20 and 22) put 0.9 kB back (15.84 kB).
// updateKeeping (issue 19: read, merge, send files back by name) added 0.6 kB (16.47 kB).
// Named ids for integrations.update/delete/events (issue 21: positional ids were easy to swap),
// checked by the one parser the submission updates use, added 0.12 kB (17.12 kB).
// Issues 29 and 30 added 1.6 kB (18.71 kB): the one-pass query scrubber (0.1 kB), refusing dot
// segments in path parameters before the token is sent elsewhere (0.27 kB), parsing and redacting
// only the start of an error body (0.26 kB), updateKeeping's `current` and `search` and a
// not-found message that says what was read (0.32 kB), and the drift ledger's advice on the error
// statuses it knows (0.63 kB, the ledger's own text from STATUS_DRIFT).
// isFormsApiError made by guardFor, the one guard every package's error uses (issue 31), 0.06 kB
// (18.77 kB). One rule for credential-like header and parameter names, shared with the inbox
// (issue 31), so error headers such as `x-api-key` are redacted too: 0.05 kB (18.82 kB).
// client.operations, a checked method for every operation of the spec (issue 26), 0.53 kB
// (19.35 kB): about 0.08 kB for the table's new columns (query names, body, success), the rest
// for the methods and their request checks. Each operation the spec gains costs its table row.
// One reader of the wait a 429 asks for (Retry-After, else X-RateLimit-Reset) instead of two, and
// a pacer's typed error passed on by the client (issue 31): 0.02 kB less minified, 0.02 kB more
// gzipped (19.37 kB); the budget stays.
// 18 operations the spec gained (workspaces, form writes, the export), a table row and a method
// each with no code: 0.52 kB (19.89 kB). The pacer's rate-limit buckets of their own, read from the
// table (the export's 10 a minute apart from the shared 100): 0.24 kB, the table's entry included.
// forms.updateKeeping (read, merge, send the whole form back): 0.1 kB (20.26 kB).
// submissions.export, the export's two answers typed apart (the CSV with its file name, or the job
// a token cannot follow): 0.12 kB (20.38 kB); the budget moves to 20.4 kB for it.
// Errors that name a member or an invitation, say "the workspace" where no form is involved, and
// call a status the spec documents for the operation (an invitation already sent: 400) an answer
// rather than a surprise (a new user's trial): 0.12 kB (20.50 kB); the budget moves to 20.5 kB.
// One way to send an attempt (issue 31: no reused first Request, the fetch option resolved to
// one signature, a plain timer instead of a deadline set): 0.24 kB less (20.26 kB).
// The retained WeakMap gone (issue 31: every runtime tested keeps a joined signal alive while a
// source can abort it): 0.04 kB less (20.36 kB).
// A client without a token (`token: null`) and a pacer that spaces only a service reporting a
// limit (`onlyWhenLimited`), so the contract suite sends through the client instead of a fetch
// stack of its own (issue 31): 0.13 kB (20.49 kB with the WeakMap gone), within the budget.
// A caller's fetch keeps the Request it is handed until it settles, so that a GC cannot take the
// timeout with it (a call that never ended): 0.02 kB (20.51 kB); the budget moves to 20.6 kB.
// An option that is not one is refused in the toolkit's one sentence, with the name it is nearest
// to ("Did you mean `retry.retries`?", @forms-api/internal's edit distance, shared with the inbox,
// webhook-verify and the sandbox, which had it or ignored such names): 0.17 kB (20.77 kB); the
// budget moves to 20.8 kB.
// An error message quotes the tenant's words with their control characters escaped (the
// toolkit's one sanitiser, `printable`), so logging `err.message` cannot drive a terminal:
// 0.26 kB (21.03 kB); the budget moves to 21.1 kB.
// No micro-optimisations (issue 31): the answer is read through the toolkit's one bounded reader
// (@forms-api/internal's readBounded, bundled whole: its deadline, signal and reservation cannot
// be shaken out) instead of the runtime's `text()` behind a framing fork, and helpers get the
// parsed body from the attempt instead of patched `text`/`json`: 0.44 kB (21.54 kB); the budget
// moves to 21.6 kB.
// Whole-number options checked by the toolkit's one rule (@forms-api/internal's integerOption,
// shared with webhook-verify and the inbox: exact integers in range, the value shown, a text never
// echoed) instead of six checks of the client's own: 0.09 kB (21.64 kB); the budget moves to 21.7 kB.
// A raw call's own timeoutMs, retry and maxResponseBytes read from its init (they were dropped):
// 0.05 kB (21.69 kB), within the budget. One way to describe a refused value, shared with
// integerOption (the client's own describe gone): 0.02 kB less (21.67 kB).
// The budget stays tight on purpose: the next addition has to be weighed, not waved through.
const BUDGET_BYTES = 21.7 * 1024;
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const result = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
  write: false,
  logLevel: 'error',
});
const code = result.outputFiles[0].contents;
const gzipped = gzipSync(code, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
console.log(
  `@forms-api/client (with openapi-fetch): ${kb(code.length)} minified, ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped)`,
);
if (gzipped > BUDGET_BYTES) {
  console.error(`Over the size budget by ${kb(gzipped - BUDGET_BYTES)}.`);
  process.exit(1);
}
