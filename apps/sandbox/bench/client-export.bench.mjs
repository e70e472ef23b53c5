// The client's export (issue 28) of 10,000 submissions from the observed sandbox with its rate
// limit on (100 requests a minute per user), paced by the client's pacer: the time beside the
// floor the rate limit sets (requests needed ÷ 100 a minute), the ratio (limit 1.1×), and the live
// heap after a forced GC at every page, which must stay flat. It lives with the sandbox because
// the sandbox depends on the client, not the other way round. The sandbox runs in a child process
// so that the heap measured is the exporter's alone. Run after `pnpm build`, with --expose-gc.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const SUBMISSIONS = 10_000;
const FORM = 11;
const PER_MINUTE = 100;
const LIMIT_RATIO = 1.1;

if (process.argv[2] === 'serve') {
  // The child: form 11 alone with 10,000 submissions (the other forms keep theirs out of the way).
  const { defaultSeed, startSandbox } = await import('../dist/index.js');
  const seed = defaultSeed({ submissionsPerForm: SUBMISSIONS });
  seed.submissions = seed.submissions.filter((s) => s.formId === FORM);
  const sandbox = await startSandbox({
    behaviour: 'observed',
    seed,
    rateLimit: { limit: PER_MINUTE, windowMs: 60_000 },
    log: () => {},
  });
  process.send({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.all });
  process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
} else {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const { createFormsClient, createRequestPacer } = await import('@forms-api/client');
  const { exportSubmissions } = await import('@forms-api/client/submissions');
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [{ baseUrl, token }] = await once(child, 'message');
  try {
    const pacer = createRequestPacer({ requestsPerMinute: PER_MINUTE });
    const client = createFormsClient({ baseUrl, token, pacing: pacer });
    const mb = (bytes) => bytes / 1024 / 1024;
    const heaps = [];
    let bytes = 0;
    console.log(`Exporting ${SUBMISSIONS} submissions of form ${FORM} as NDJSON at ${PER_MINUTE} requests a minute…`);
    const started = performance.now();
    const summary = await exportSubmissions(client, FORM, {
      format: 'ndjson',
      // Counted and dropped: the output's own memory is not the exporter's.
      to: (text) => {
        bytes += text.length;
      },
      onProgress: (p) => {
        globalThis.gc();
        heaps.push(process.memoryUsage().heapUsed);
        if (p.pages % 20 === 0) console.log(`  ${p.written} written, ${p.pages} pages`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const stats = pacer.stats();
    if (summary.written !== SUBMISSIONS) throw new Error(`wrote ${summary.written}, not ${SUBMISSIONS}`);
    const requests = summary.pages + summary.formReads;
    if (stats.requests !== requests)
      throw new Error(`the pacer saw ${stats.requests} requests, the export ${requests}`);
    const floor = (requests / PER_MINUTE) * 60;
    const ratio = seconds / floor;
    const page = (bytes / summary.pages) * 2; // a page's text in memory, UTF-16
    // What the walk's set of written ids weighs alone, measured the same way (its part of the slope).
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    const ids = new Set(Array.from({ length: summary.written }, (_, i) => 1001 + i));
    globalThis.gc();
    const idsBytes = process.memoryUsage().heapUsed - before;
    ids.clear();
    const first = heaps[0];
    // Past the warm-up (code compiled as the first pages run): a quarter of the way.
    const warm = heaps[Math.floor(heaps.length / 4)];
    const peak = Math.max(...heaps);
    console.log(
      `\nOn ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, Node ${process.versions.node}:\n`,
    );
    console.table([
      {
        submissions: summary.written,
        requests,
        '429s': stats.rateLimited,
        'floor s (requests ÷ 100/min)': floor.toFixed(1),
        'export s': seconds.toFixed(1),
        ratio: `${ratio.toFixed(3)}×`,
        limit: `≤ ${LIMIT_RATIO}×`,
        verdict: ratio <= LIMIT_RATIO ? 'met' : 'NOT MET',
      },
    ]);
    console.table([
      {
        'live heap after page 1 MB': mb(first).toFixed(2),
        'peak MB': mb(peak).toFixed(2),
        'after the last page MB': mb(heaps.at(-1)).toFixed(2),
        'peak − page 1 MB': mb(peak - first).toFixed(2),
        'peak − a quarter of the way MB': mb(peak - warm).toFixed(2),
        'of it, the ids MB': mb(idsBytes).toFixed(2),
        'the rest, in pages of text': ((peak - warm - idsBytes) / page).toFixed(2),
      },
    ]);
    console.log(
      `One page of NDJSON is ${mb(page).toFixed(2)} MB in memory; the walk also keeps the ids it wrote (${summary.written}).`,
    );
    // The curve, to tell a warm-up (compiled code, then flat) from a leak (a slope to the end).
    const at = [1, 10, 25, 50, 75, 100].filter((n) => n <= heaps.length);
    console.log(`live heap MB after page ${at.map((n) => `${n}: ${mb(heaps[n - 1]).toFixed(2)}`).join(', ')}`);
    if (ratio > LIMIT_RATIO) process.exitCode = 1;
  } finally {
    child.disconnect();
  }
}
