// Benchmark of the explorer: generated cases per second against the embedded sandbox (contract
// behaviour, rate limit off), and the requests of a default live run (the written checks with
// --write plus the explorer's default budget, against the sandbox behaving like the service),
// turned into the duration of that run at the service's limit of 100 requests a minute.
// Run after `pnpm build`: `pnpm --filter @forms-api/contract-tests bench`.
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../dist/explore/explore.js';
import { runTarget } from '../dist/runner.js';
import { loadSpec } from '../dist/spec.js';
import { suitesFor } from '../dist/suites/index.js';
import { startSandboxTarget } from '../dist/targets/sandbox.js';

const spec = loadSpec();
const signal = new AbortController().signal;
/** Requests a minute the service allows one user; the pacer spaces them 61 s / limit apart. */
const SERVICE_LIMIT = 100;
const BUDGET = 1_000;

async function measureExplore() {
  const target = { ...(await startSandboxTarget()), traffic: { requests: 0 } };
  try {
    const started = performance.now();
    const results = await runTarget(target, {
      spec,
      suites: exploreSuite(spec, { seed: 7, budget: BUDGET, timeLimitMs: 120_000 }),
      signal,
    });
    const seconds = (performance.now() - started) / 1000;
    return { requests: target.traffic.requests, seconds, failed: results.filter((r) => r.outcome === 'failed').length };
  } finally {
    await target.stop();
  }
}

async function measureDefaultLiveRun() {
  const target = { ...(await startSandboxTarget({ behaviour: 'observed' })), traffic: { requests: 0 } };
  try {
    const suites = [
      ...suitesFor(spec.bundle),
      ...exploreSuite(spec, { seed: 7, budget: DEFAULT_EXPLORE_BUDGET, timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS }),
    ];
    await runTarget(target, { spec, suites, signal });
    const explored = target.traffic.requests;
    return { requests: explored };
  } finally {
    await target.stop();
  }
}

const explore = await measureExplore();
const live = await measureDefaultLiveRun();
const pacedSeconds = (live.requests * 61) / SERVICE_LIMIT;
console.log(`Node ${process.versions.node}`);
console.log(
  `explorer against the sandbox: ${explore.requests} generated requests in ${explore.seconds.toFixed(1)} s = ${(explore.requests / explore.seconds).toFixed(0)} cases/s (budget ${BUDGET}; ${explore.failed} unexpected failures)`,
);
console.log(
  `default live run (written checks with --write + explorer budget ${DEFAULT_EXPLORE_BUDGET}, no proxy pass): ${live.requests} requests`,
);
console.log(
  `  at ${SERVICE_LIMIT} requests a minute (paced 61 s / ${SERVICE_LIMIT} apart): ${Math.floor(pacedSeconds / 60)} min ${Math.round(pacedSeconds % 60)} s   limit: the explorer's share stays within its budget of ${DEFAULT_EXPLORE_BUDGET} requests (${((DEFAULT_EXPLORE_BUDGET * 61) / SERVICE_LIMIT).toFixed(0)} s at the limit)`,
);
if (explore.failed > 0) process.exitCode = 1;
