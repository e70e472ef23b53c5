// `pnpm bench` (after the throughput benchmark): the chaos run's figures. CHAOS_DELIVERIES sets the
// number of deliveries (default 20,000). Run after `pnpm build`.
import { cpus, loadavg } from 'node:os';
import { formatChaos, runChaos } from './chaos.mjs';

const deliveries = Number(process.env.CHAOS_DELIVERIES ?? 20_000);
console.log(
  `\n== webhook-inbox chaos: Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()[0].toFixed(1)} ==`,
);
const figures = await runChaos({ deliveries, log: (line) => console.log(line) });
for (const line of formatChaos(figures)) console.log(line);
const ok =
  figures.accepted === figures.deliveries &&
  figures.lost === 0 &&
  figures.duplicates.unexplained === 0 &&
  figures.deadLetters === 0;
if (!ok) console.log(JSON.stringify({ failures: figures.failureSamples, lost: figures.lostIds }, null, 1));
console.log(
  ok
    ? 'chaos: every accepted delivery handled; every second run one of the named at-least-once cases'
    : `chaos: FAILED ${JSON.stringify(figures.duplicates.unexplainedIds)}`,
);
process.exit(ok ? 0 : 1);
