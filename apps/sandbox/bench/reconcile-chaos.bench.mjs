// `pnpm bench` (after the export): the reconcile chaos run's figures at 500 answers
// (RECONCILE_CHAOS_ANSWERS sets another count). Run after `pnpm build`.
import { cpus, loadavg } from 'node:os';
import { formatReconcileChaos, runReconcileChaos } from './reconcile-chaos.mjs';

const answers = Number(process.env.RECONCILE_CHAOS_ANSWERS ?? 500);
console.log(
  `\n== sandbox reconcile chaos: Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ${loadavg()[0].toFixed(1)} ==`,
);
const f = await runReconcileChaos({ answers, log: (line) => console.log(line) });
for (const line of formatReconcileChaos(f)) console.log(line);
const missing = f.made.filter((key) => !f.recorded.includes(key));
const ok =
  f.made.length === answers &&
  missing.length === 0 &&
  f.recorded.length === answers &&
  f.claimedTwice.length === 0 &&
  f.recovered === f.lost + f.lateWebhooks &&
  f.lost <= f.failedWebhooks &&
  f.deadLetters === 0;
console.log(
  ok
    ? 'reconcile chaos: every submission handled exactly once; each lost webhook recovered by the reconciler'
    : `reconcile chaos: FAILED ${JSON.stringify({ missing: missing.slice(0, 5), claimedTwice: f.claimedTwice.slice(0, 5) })}`,
);
process.exit(ok ? 0 : 1);
