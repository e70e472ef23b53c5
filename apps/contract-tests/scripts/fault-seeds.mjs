// `pnpm --filter @forms-api/contract-tests fault-seeds`: the self-test's proof over many seeds.
// For each seed, each sandbox behaviour and each fault asked for, the suite runs with the explorer
// at its default budget and that seed; one line per verdict names the checks that reported the
// fault (the explorer's first) with the seed, so any miss replays with `--seed`. Exits 1 on a miss
// or on a failure of the healthy baseline. Reads dist/: build first (`pnpm build`).
import { parseArgs } from 'node:util';
import { FAULT_CATALOGUE, SANDBOX_FAULTS } from '@forms-api/sandbox/faults';
import { loadSpec } from '../dist/spec.js';
import { sandboxFaultSource } from '../dist/selftest/faults.js';
import { runSelfTest } from '../dist/selftest/run-self-test.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '10' },
    fault: { type: 'string', multiple: true },
    deep: { type: 'boolean', default: false },
    behaviour: { type: 'string', multiple: true },
  },
});
const seeds = Number(values.seeds);
if (!Number.isSafeInteger(seeds) || seeds < 1) {
  console.error(`--seeds: expected a whole number from 1, got ${JSON.stringify(values.seeds)}`);
  process.exit(2);
}
// --deep: the faults the catalogue says generated cases find (no check was written for them).
const faults = values.deep
  ? SANDBOX_FAULTS.filter((name) => FAULT_CATALOGUE[name].foundByExplorer)
  : (values.fault ?? [...SANDBOX_FAULTS]);
const behaviours = values.behaviour ?? ['contract', 'observed'];

const spec = loadSpec();
const caught = new Map(faults.map((name) => [name, 0]));
let failed = false;
for (let seed = 1; seed <= seeds; seed++)
  for (const behaviour of behaviours) {
    const source = sandboxFaultSource(behaviour);
    const report = await runSelfTest(spec, source, {
      seed,
      faults,
      // A line per verdict as its run ends: a sweep of minutes shows its progress.
      onVerdict(v) {
        if (v.caught) caught.set(v.fault, caught.get(v.fault) + 1);
        else failed = true;
        const by =
          v.caughtBy.slice(0, 3).join(' | ') + (v.caughtBy.length > 3 ? ` (and ${v.caughtBy.length - 3} more)` : '');
        console.log(`seed ${seed} ${behaviour} ${v.fault} ${v.caught ? `✓ ${by}` : '✗ NOT REPORTED'}`);
      },
    });
    for (const r of report.baselineFailures) {
      failed = true;
      console.log(
        `seed ${seed} ${behaviour} baseline ✗ ${r.operationId} › ${r.name}: ${(r.reason ?? '').split('\n')[0]}`,
      );
    }
    await source.close();
  }
const runs = seeds * behaviours.length;
for (const [name, n] of caught) console.log(`${name}: caught ${n}/${runs}`);
process.exitCode = failed ? 1 : 0;
