// Benchmark: time to match a schema failure with many errors against the drift ledger, for the
// indexed matcher (dist/drift.js) and the nested one it replaced (below), side by side with the
// limit the indexed one must keep: growing the errors tenfold may cost at most LIMIT times more.
// Run after `pnpm build`: `pnpm --filter @forms-api/contract-tests bench`.
import { matchFailure } from '../dist/drift.js';
import { loadSpec } from '../dist/spec.js';

/** Linear growth is 10x for 10x the errors; quadratic would be 100x. */
const LIMIT = 20;
const spec = loadSpec();

/**
 * The matcher before the index (from git history), for comparison only, reading the ledger as it
 * is: a keyed error (a missing or extra key) is explained only by a match whose `properties` names
 * the key, and a match with a `when` never applies to a failure with no situation. (It read a
 * `property` field no entry has, so every keyed match explained every key.)
 */
const KEYED = new Set([
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentRequired',
  'propertyNames',
]);
function nestedMatch(ledger, failure) {
  const errorProperty = (e) => {
    const v =
      e.params.missingProperty ?? e.params.additionalProperty ?? e.params.unevaluatedProperty ?? e.params.propertyName;
    return typeof v === 'string' ? v : undefined;
  };
  const matches = (m, op, e) =>
    m.when === undefined &&
    m.operationId === op &&
    new RegExp(`^(?:${m.keyword})$`).test(e.keyword) &&
    new RegExp(m.instancePath).test(e.instancePath) &&
    (!KEYED.has(e.keyword) || (m.properties ?? []).includes(errorProperty(e) ?? ''));
  const combinators = new Set(['oneOf', 'anyOf', 'if', 'not']);
  const errors = failure.schemaErrors;
  const ids = new Set();
  const unexplained = [];
  for (const e of errors) {
    const entry = ledger.entries.find((x) =>
      x.match.some((m) => m.kind === 'schema' && matches(m, failure.operationId, e)),
    );
    if (entry) ids.add(entry.id);
    else unexplained.push(e);
  }
  const residual = unexplained.filter(
    (e) =>
      !(
        combinators.has(e.keyword) &&
        ids.size > 0 &&
        errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && !unexplained.includes(o))
      ),
  );
  return { known: residual.length === 0 && ids.size > 0, entryIds: [...ids], unexplained: residual };
}

/** An update response whose answer list has `items` invalid entries (four errors each), plus one error the ledger explains. */
function failureWith(items) {
  const body = {
    message: 'updated',
    data: {
      submission_id: 'a1b2',
      form_id: 2,
      submitted_at: '2026-01-01T10:00:00+00:00',
      data: { f1: Array.from({ length: items }, () => true) },
    },
  };
  const { errors } = spec.validator.validateResponse('updateFormSubmission', 200, body);
  return { kind: 'schema', message: 'bench', operationId: 'updateFormSubmission', schemaErrors: errors };
}

function time(match, failure) {
  const started = performance.now();
  match(spec.ledger, failure);
  return performance.now() - started;
}

const rows = [];
for (const [matcher, match, sizes] of [
  ['indexed', matchFailure, [5_000, 50_000]],
  ['nested (before)', nestedMatch, [200, 2_000]],
]) {
  const [small, large] = sizes.map(failureWith);
  time(match, small); // warm up
  const t1 = time(match, small);
  const t2 = time(match, large);
  rows.push({
    matcher,
    errors: `${small.schemaErrors.length} -> ${large.schemaErrors.length}`,
    ms: `${t1.toFixed(1)} -> ${t2.toFixed(1)}`,
    growth: (t2 / t1).toFixed(1),
    limit: matcher === 'indexed' ? LIMIT : '-',
  });
}
console.table(rows);
// Both matchers must judge the bench's failure alike, or the comparison measures different work.
const probe = failureWith(200);
const [indexedVerdict, nestedVerdict] = [matchFailure, nestedMatch].map((match) => match(spec.ledger, probe));
const agree =
  indexedVerdict.known === nestedVerdict.known &&
  indexedVerdict.entryIds.join() === nestedVerdict.entryIds.join() &&
  indexedVerdict.unexplained.length === nestedVerdict.unexplained.length;
console.log(
  `verdicts on ${probe.schemaErrors.length} errors: entries ${indexedVerdict.entryIds.join(', ') || 'none'}, ` +
    `${indexedVerdict.unexplained.length} unexplained; the nested matcher ${agree ? 'agrees' : 'DISAGREES'}`,
);
if (!agree || indexedVerdict.entryIds.length === 0) process.exitCode = 1;
const indexed = Number(rows[0].growth);
console.log(
  `indexed matcher: ${indexed}x the time for 10x the errors (limit ${LIMIT}x): ${indexed <= LIMIT ? 'OK' : 'OVER THE LIMIT'}`,
);
console.log('Figures from a shared machine are noisy; compare the ratios of one run.');
if (indexed > LIMIT) process.exitCode = 1;
