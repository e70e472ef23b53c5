// The explorer: cases generated from the spec's own schemas (fast-check: seeds, shrinking), judged
// on every exchange like every other check (status documented, content type, body valid for that
// status; no 5xx; no, a wrong or a forged token 401, a token lacking the ability 403; the list promises),
// stateful sequences that follow the spec's `links`, wrong parents and another workspace's form,
// what a resource just made lists (nothing yet), and another user's token on the target's reads.
// The operations come from the spec (`operationsOf`, the suite's one reading of it): what a path
// parameter identifies, the query parameters, the links and the request bodies decide which
// exploration reaches which operation.
// Each exploration is an ordinary check of the runner; each generated case runs by the runner's
// rules (`runInContext`, `verdictsOf`), and a finding is the shrunk case with the seed.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { SpecLink, SpecOperation } from '@forms-api/spec/operations';
import { operationsOf, takesQuery } from '../operations.js';
import type { OperationId } from '@forms-api/types';
import { CheckContext, type TokenChoice } from '../check-context.js';
import { tokenVariable } from '../targets/target.js';
import { createLedgerIndex } from '../drift.js';
import { CheckFailed, SkipCheck, type Exchange, type Failure } from '../model.js';
import { runInContext, verdictsOf } from '../runner.js';
import type { SpecArtifacts } from '../spec.js';
import type { Check, OperationSuite } from '../suites/types.js';
import { withTargetIds } from '../suites/common.js';
import type { Target } from '../targets/target.js';
import {
  answersToSendBack,
  fileAnswersOf,
  findSubmission,
  formFields,
  integrationBody,
  jsonType,
  META_KEYS,
  stringField,
} from '../suites/helpers.js';
import { readAfterWriteChecks } from './read-after-write.js';
import { schemaArbitraries, type LabelledValue, type Schema, type SchemaArbitraries } from './schema-arbitrary.js';

export interface ExploreOptions {
  /** Replays a run: the same seed sends the same cases. */
  readonly seed: number;
  /** Most requests the explorer sends per target (shrinking included). */
  readonly budget: number;
  /** Longest the explorer runs per target. */
  readonly timeLimitMs: number;
}

/** The default budget: a few seconds on a sandbox, two minutes of a tenant's 100 a minute. */
export const DEFAULT_EXPLORE_BUDGET = 200;
export const DEFAULT_EXPLORE_TIME_LIMIT_MS = 90_000;
/** Ids no tenant has (as the 404 checks use), and a token no tenant issued. */
const UNKNOWN_ID = 987654321;
const WRONG_TOKEN = '1|explorerWrongToken0000000000000000000000000';
const EXAMPLE_URL = 'https://example.com/forms-api-contract-test';

type Query = Record<string, unknown>;
type Who = 'none' | 'wrong' | 'forged' | 'lacking' | 'foreign';
/** Values for path parameters, by what they identify (`x-identifies`: form, workspace, submission, …). */
type Ids = Readonly<Record<string, unknown>>;

/** Shared by the checks of one target: the budget left and when time runs out. */
interface Allowance {
  requestsLeft: number;
  readonly deadline: number;
  /** Checks still to share the budget (those that try every case of a small set take their cases off the top). */
  checksLeft: number;
}

/** An explore check before it is handed to the runner: `exhaustive` ones try a small set of cases, each once. */
type ExploreCheck = Check & {
  readonly exhaustive?: boolean;
  /** Requests it takes off the top, outside the others' shares (a few cases, the first tried whatever the seed). */
  readonly fixedShare?: number;
};

/**
 * The request bodies the spec cannot make safe or fit on its own, by request schema (never by
 * operation, so a new operation with one of these bodies is explored unchanged): an integration
 * stays inactive and calls no real address; a submission's answers must fit its form's fields,
 * which only the tenant knows, so they are the submission under test's own (`Setup`). A schema not
 * named here is sent as generated.
 */
const REQUEST_BODIES: Record<
  string,
  {
    /** Makes a generated valid body safe to send. */
    readonly safe: (body: any) => unknown;
    /** A valid body to start from (forbidden bodies, writes without the right), or undefined when the target cannot give one. */
    readonly base: (setup?: Setup) => Record<string, any> | undefined;
    /** The base with a change a read-back can see. */
    readonly changed: (setup: Setup) => Record<string, any> | undefined;
  }
> = {
  WebhookIntegrationInput: {
    safe: (body) => ({ ...body, status: 'inactive', data: { ...body?.data, webhook_url: EXAMPLE_URL } }),
    base: () => integrationBody(),
    changed: () => integrationBody({ webhook_url: CHANGED_URL }),
  },
  SubmissionUpdate: {
    safe: (body) => body,
    base: (s) => (s?.original ? answersToSendBack(s.original, s.fields) : undefined),
    changed: (s) =>
      s.original && s.changedField
        ? { ...answersToSendBack(s.original, s.fields), [s.changedField]: 'changed by an unauthorised write' }
        : undefined,
  },
};
const CHANGED_URL = `${EXAMPLE_URL}/changed`;

/**
 * The bodies the explorer sends `op` where it expects success: generated from its schema (the spec
 * must call valid only what the service accepts) and made safe (undefined when it takes none).
 */
export function generatedBodyOf(arbitraries: SchemaArbitraries, op: SpecOperation): fc.Arbitrary<unknown> {
  if (!op.jsonBody) return fc.constant(undefined);
  const safe = REQUEST_BODIES[bodySchemaName(op) ?? '']?.safe ?? ((body: unknown) => body);
  return arbitraries.valid(op.jsonBody.schema as Schema).map(safe);
}

/** The name of an operation's request body schema (`#/components/schemas/<name>`). */
function bodySchemaName(op: SpecOperation): string | undefined {
  const ref = op.jsonBody?.schema.$ref;
  return typeof ref === 'string' ? ref.split('/').at(-1) : undefined;
}

const pathParameters = (op: SpecOperation) => op.parameters.filter((p) => p.in === 'path');
const identifies = (op: SpecOperation, what: string) => pathParameters(op).some((p) => p.identifies === what);
const isWrite = (op: SpecOperation) => op.method !== 'GET' && op.method !== 'HEAD';
/**
 * What tells two findings of one check apart: the operation, the kind, what was observed and the
 * status received, and for a schema failure the first rule broken (not the values, which shrink).
 */
const defectOf = (f: Failure) =>
  [f.kind, f.operationId, f.observation, f.receivedStatus, f.schemaErrors?.[0]?.schemaPath].join(' ');

/** Path values for `op` from what each parameter identifies; undefined when one is missing. */
function pathOf(op: SpecOperation, ids: Ids): Record<string, unknown> | undefined {
  const path: Record<string, unknown> = {};
  for (const p of pathParameters(op)) {
    const value = p.identifies === undefined ? undefined : ids[p.identifies];
    if (value === undefined) return undefined;
    path[p.name] = value;
  }
  return path;
}

/** What a target names, by what it identifies. */
const targetIds = (target: Target): Ids => ({
  workspace: target.ids.workspaceId,
  form: target.ids.formId,
  submission: target.ids.submissionId,
  integration: target.ids.integrationId,
});
/** What `targetIds` may hold: an operation whose path needs anything else (a signed file) is not the explorer's. */
const TARGET_NAMES = new Set(['workspace', 'form', 'submission', 'integration']);
const UNKNOWN_IDS: Ids = Object.fromEntries([...TARGET_NAMES].map((what) => [what, UNKNOWN_ID]));
const fillable = (op: SpecOperation) =>
  pathParameters(op).every((p) => p.identifies !== undefined && TARGET_NAMES.has(p.identifies));
const missingIds = (op: SpecOperation, ids: Ids) =>
  pathParameters(op)
    .filter((p) => p.identifies === undefined || ids[p.identifies] === undefined)
    .map((p) => p.identifies ?? p.name)
    .join(', ')
    .replace(/^/, "the target's ")
    .concat(' id');

/** What the write checks need of the target: its submission under test (with its form's fields), when one is set and found. */
interface Setup {
  readonly submissionId: number | undefined;
  readonly original: Awaited<ReturnType<typeof findSubmission>>;
  readonly fields: Awaited<ReturnType<typeof formFields>>;
  readonly changedField: string | undefined;
}

async function setUp(ctx: CheckContext): Promise<Setup> {
  const submissionId = ctx.target.ids.submissionId;
  const original = submissionId === undefined ? undefined : await findSubmission(ctx, submissionId);
  const fields = original ? await formFields(ctx) : [];
  return { submissionId, original, fields, changedField: original ? stringField(original, fields) : undefined };
}

/**
 * The explore checks, from the spec's operations: auth on every secured operation, generated query
 * parameters on every list a target can address, a links sequence for every operation whose links
 * lead to a delete, the read-back of every update whose links lead to a list, wrong parents,
 * another workspace's form, forbidden bodies and writes without the right on every write.
 */
export function exploreSuite(spec: SpecArtifacts, options: ExploreOptions): OperationSuite[] {
  const byId = operationsOf(spec.bundle);
  const operations = [...byId.values()];
  const operationOf = (id: string): SpecOperation => {
    const op = byId.get(id);
    if (!op) throw new Error(`a link leads to ${id}, an operation the spec does not have`);
    return op;
  };
  const arbitraries = schemaArbitraries(spec.bundle);
  const ledger = createLedgerIndex(spec.ledger);
  // By the target's name: a --own-form run gives its write checks a copy of the target (another object).
  const allowances = new Map<string, Allowance>();
  const checks: ExploreCheck[] = [];
  const allowanceOf = (target: Target): Allowance => {
    let allowance = allowances.get(target.name);
    if (!allowance) {
      allowance = {
        requestsLeft: options.budget,
        deadline: Date.now() + options.timeLimitMs,
        checksLeft: checks.filter((c) => !c.exhaustive && !c.fixedShare && (!c.writes || target.write)).length,
      };
      allowances.set(target.name, allowance);
    }
    return allowance;
  };

  /**
   * Runs a property over generated cases within this check's share of the budget, each case in a
   * context of its own by the runner's rules; records each distinct unexpected failure, shrunk,
   * with the seed, and one example of each known drift. A failure does not end the search: the
   * property runs again with what was found counted as passing (the cases tried before it are not
   * sent again), so that one defect cannot hide another, until no new one turns up or the share is
   * spent.
   */
  async function explore<T>(
    ctx: CheckContext,
    name: string,
    arbitrary: fc.Arbitrary<T>,
    run: (scratch: CheckContext, value: T) => Promise<void>,
    requestsPerCase: number,
    describe: (value: T) => string,
    /** Cases tried first, whatever the seed (one of each class a ledger entry depends on; every case of an exhaustive check). */
    examples: T[] = [],
    exhaustive = false,
    /** This check's share when it takes a fixed one (`ExploreCheck.fixedShare`). */
    fixedShare?: number,
  ): Promise<void> {
    if (exhaustive) return exploreCases(ctx, name, examples, run, requestsPerCase, describe, [], true);
    const a = allowanceOf(ctx.target);
    const share = fixedShare ?? Math.floor(a.requestsLeft / Math.max(1, a.checksLeft));
    if (fixedShare === undefined) a.checksLeft--;
    const numRuns = Math.max(examples.length, 1, Math.floor(share / requestsPerCase / 2)); // half for shrinking
    let spent = 0;
    const known = new Map<string, Failure>();
    const found = new Set<string>();
    // Cases of the seed's sequence already tried by an earlier round: the same seed generates them again.
    let tried = 0;
    for (;;) {
      let last: { unexpected: Failure[]; value: T } | undefined;
      let generated = 0;
      const result = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          if (last === undefined && generated++ < tried) return true;
          if (spent >= share || a.requestsLeft - spent <= 0 || Date.now() > a.deadline || ctx.signal.aborted)
            return true;
          // Secrets a case registers are the check's: its results are redacted with them.
          const scratch = new CheckContext(ctx.target, ctx.spec, ctx.signal, ctx.extraSecrets);
          // Whatever a case created is undone before the next one (and before shrinking repeats it).
          await runInContext(scratch, () => run(scratch, value));
          spent += scratch.recorder.size;
          const verdicts = verdictsOf(ctx.target, scratch.failures, ledger);
          for (const { failure, verdict } of verdicts)
            if (verdict?.known) for (const id of verdict.entryIds) if (!known.has(id)) known.set(id, failure);
          const unexpected = verdicts.filter((v) => !v.verdict?.known && !found.has(defectOf(v.failure)));
          if (unexpected.length === 0) return true;
          last = { unexpected: unexpected.map((v) => v.failure), value };
          return false;
        }),
        {
          seed: options.seed,
          numRuns,
          examples: examples.map((example) => [example] as [T]),
          interruptAfterTimeLimit: Math.max(1, a.deadline - Date.now()),
          markInterruptAsFailure: false,
        },
      );
      if (!result.failed || !last) break;
      tried = generated;
      const replay = `found by the explorer (${name}; shrunk case: ${describe(last.value)}); replay: --seed ${options.seed}`;
      for (const failure of last.unexpected) {
        found.add(defectOf(failure));
        ctx.fail({ ...failure, message: `${failure.message} — ${replay}` });
      }
    }
    a.requestsLeft -= spent;
    for (const failure of known.values()) ctx.fail(failure);
  }

  /**
   * Tries a finite set of cases, each once: `first`, then the others in the seed's order, within
   * the check's share of the budget (every case when `exhaustive`). Reports every failing case, not
   * the first: each unexpected failure with its case and the seed, each distinct known one once. A
   * case is already minimal (nothing to shrink), and stopping at a failure would hide every later one.
   */
  async function exploreCases<T>(
    ctx: CheckContext,
    name: string,
    cases: readonly T[],
    run: (scratch: CheckContext, value: T) => Promise<void>,
    requestsPerCase: number,
    describe: (value: T) => string,
    first: readonly T[] = [],
    exhaustive = false,
  ): Promise<void> {
    const a = allowanceOf(ctx.target);
    const share = exhaustive ? cases.length * requestsPerCase : Math.floor(a.requestsLeft / Math.max(1, a.checksLeft));
    if (!exhaustive) a.checksLeft--;
    const rest = cases.filter((c) => !first.includes(c));
    const shuffled =
      rest.length > 1
        ? fc.sample(fc.shuffledSubarray(rest, { minLength: rest.length }), { seed: options.seed, numRuns: 1 })[0]!
        : rest;
    let spent = 0;
    const known = new Set<string>();
    for (const value of [...first, ...shuffled]) {
      if (spent >= share || a.requestsLeft - spent <= 0 || Date.now() > a.deadline || ctx.signal.aborted) break;
      const scratch = new CheckContext(ctx.target, ctx.spec, ctx.signal, ctx.extraSecrets);
      await runInContext(scratch, () => run(scratch, value));
      spent += scratch.recorder.size;
      const found = `found by the explorer (${name}; case: ${describe(value)}); replay: --seed ${options.seed}`;
      for (const { failure, verdict } of verdictsOf(ctx.target, scratch.failures, ledger)) {
        if (!verdict?.known) ctx.fail({ ...failure, message: `${failure.message} — ${found}` });
        else {
          const key = `${verdict.entryIds.join(' ')} ${failure.operationId ?? ''} ${failure.message}`;
          if (!known.has(key)) ctx.fail(failure);
          known.add(key);
        }
      }
    }
    a.requestsLeft -= spent;
  }

  const generatedBody = (op: SpecOperation) => generatedBodyOf(arbitraries, op);
  const asCheck = (op: SpecOperation) => op.operationId as OperationId;

  const secured = operations.filter((op) => !op.public && fillable(op));
  const writes = secured.filter(isWrite);
  /** The operations whose 200 links lead to a delete: what they create can be followed, deleted, and followed again. */
  const sequences = operations.flatMap((op) => {
    const deleteLink = op.links.find((link) => operationOf(link.operationId).method === 'DELETE');
    // A read makes nothing: a list linking to its first item's removal would remove the user's own.
    return deleteLink && isWrite(op) && !op.public && fillable(op) ? [{ create: op, deleteLink }] : [];
  });
  /** A link that addresses what its operation made: one of its parameters comes from the answer. */
  const addressesTheMade = (link: SpecLink) =>
    Object.values(link.parameters).some((expression) => expression.startsWith('$response.body'));
  /** What a link's operation answers once the thing it addresses is gone: an unknown id's status. */
  const goneStatus = (link: SpecLink) =>
    pathParameters(operationOf(link.operationId)).find((p) => link.parameters[p.name]?.startsWith('$response.body'))
      ?.unknownStatus ?? 404;
  /** The list a thing is in: the GET of the path a creation posts to, or of an item's path without its last parameter. */
  const collectionOf = (op: SpecOperation): SpecOperation | undefined => {
    const parent = op.method === 'POST' ? op.path : op.path.replace(/\/\{[^/}]+\}$/, '');
    return parent === op.path && op.method !== 'POST'
      ? undefined
      : operations.find((o) => o.method === 'GET' && o.path === parent && !o.public);
  };
  /** What an operation addresses beyond its form or workspace (a submission, an integration), if anything. */
  const childKind = (op: SpecOperation) =>
    pathParameters(op).find((p) => p.identifies !== 'form' && p.identifies !== 'workspace')?.identifies;
  /** A sequence that creates a thing of `kind`: its delete link takes the created id from the response. */
  const creatorOf = (kind: string) =>
    sequences.find(({ deleteLink }) =>
      pathParameters(operationOf(deleteLink.operationId)).some(
        (p) => p.name === createdParameter(deleteLink) && p.identifies === kind,
      ),
    );

  /**
   * Creates a thing of `kind` through the spec's sequence for it, with a safe body, on `form` (the
   * target's by default), and registers its deletion (through the delete link) as a cleanup.
   * `remove` deletes it now and returns the exchange.
   */
  async function createTemporary(
    ctx: CheckContext,
    kind: string,
    form: unknown = ctx.target.ids.formId,
  ): Promise<{ id: unknown; remove: () => Promise<Exchange> }> {
    const sequence = creatorOf(kind)!;
    const path = pathOf(sequence.create, { ...targetIds(ctx.target), form })!;
    // The table's plain body where it has one: a fixture must not fail on a generated oddity the service refuses.
    const body =
      REQUEST_BODIES[bodySchemaName(sequence.create) ?? '']?.base() ??
      withTargetIds(
        ctx,
        sequence.create,
        fc.sample(generatedBody(sequence.create), { seed: options.seed, numRuns: 1 })[0],
      );
    const exchange = await request(ctx, sequence.create, { path, body });
    const parsed = exchange.status === 200 ? ctx.json(exchange) : undefined;
    const deletePath = parsed?.ok ? linkParameters(sequence.deleteLink, path, parsed.value) : {};
    if (!parsed?.ok || Object.values(deletePath).some((v) => v === undefined))
      throw new CheckFailed([
        {
          kind: 'setup',
          message: `could not create a temporary ${kind} (${sequence.create.operationId} answered ${exchange.status ?? 'nothing'})`,
          exchange,
        },
      ]);
    const deleteOp = operationOf(sequence.deleteLink.operationId);
    let removed = false;
    const remove = async () => {
      removed = true;
      return request(ctx, deleteOp, { path: deletePath });
    };
    ctx.onCleanup(`delete the temporary ${kind}`, async () => {
      if (removed) return;
      const gone = await remove();
      if (gone.status !== 200 && gone.status !== 204 && gone.status !== 404)
        ctx.fail({
          kind: 'setup',
          message: `deleting the temporary ${kind} answered ${gone.status ?? 'nothing'}`,
          exchange: gone,
        });
    });
    return { id: deletePath[createdParameter(sequence.deleteLink)!], remove };
  }

  /**
   * Ids for the write checks: the target's, with a temporary thing of every kind a sequence creates
   * (the check's own, deleted after it), and no submission unless the one under test was found.
   */
  async function writeIds(ctx: CheckContext, ops: SpecOperation[], setup: Setup): Promise<Ids> {
    const ids: Record<string, unknown> = { ...targetIds(ctx.target), submission: setup.original?.id };
    for (const kind of new Set(ops.map(childKind)))
      if (kind !== undefined && creatorOf(kind)) ids[kind] = (await createTemporary(ctx, kind)).id;
    return ids;
  }

  /** Rows of a list (an array, or a page's `data`), page by page up to 20 pages, or until the row with id `until`. */
  async function rowsOf(ctx: CheckContext, list: SpecOperation, path: Record<string, unknown>, until?: unknown) {
    const paged = takesQuery(list, 'page');
    const rows: Array<Record<string, any>> = [];
    let exchange: Exchange | undefined;
    for (let page = 1; page <= 20; page++) {
      exchange = await request(ctx, list, { path, ...(paged ? { query: { page } } : {}) });
      const body = ctx.expectResponse(exchange, { operationId: list.operationId, status: 200 }) as any;
      const data = Array.isArray(body) ? body : body?.data;
      if (!Array.isArray(data)) return { rows: undefined, exchange };
      rows.push(...data);
      if (until !== undefined && data.some((row) => row?.id === until)) break;
      if (!paged || !body?.meta?.last_page || page >= body.meta.last_page) break;
    }
    return { rows, exchange };
  }

  // Authentication and abilities on every secured operation: reads on the target's ids (or a
  // temporary thing, when the target names none and may be written), writes on ids no tenant has, so
  // that nothing can change whatever the answer; there a token lacking the ability may meet the 404
  // first (the 403 of a write on real ids is the writes-without-the-right check's). Every case, every run.
  for (const op of secured) {
    const whos = ['none', 'wrong', 'forged', 'lacking'] as const;
    checks.push({
      name: 'explore: no token, a wrong token, a forged token, a token lacking the ability',
      operationId: asCheck(op),
      on: 'live',
      exhaustive: true,
      run: async (ctx) => {
        const ids: Record<string, unknown> = isWrite(op) ? { ...UNKNOWN_IDS } : { ...targetIds(ctx.target) };
        const kind = childKind(op);
        if (kind && ids[kind] === undefined && creatorOf(kind) && ctx.target.write)
          ids[kind] = (await createTemporary(ctx, kind)).id;
        const path = pathOf(op, ids);
        // A read on an unknown id may answer 404 before the token is judged: it needs the target's ids.
        if (!path) return ctx.skip(`needs ${missingIds(op, ids)}`);
        const body = withTargetIds(ctx, op, fc.sample(generatedBody(op), { seed: options.seed, numRuns: 1 })[0]);
        await explore(
          ctx,
          `${op.operationId} auth`,
          fc.constantFrom<(typeof whos)[number]>(...whos),
          async (scratch, who) => {
            const token =
              who === 'none'
                ? null
                : who === 'wrong'
                  ? WRONG_TOKEN
                  : who === 'forged'
                    ? forgedToken(scratch)
                    : lackingToken(scratch, op.operationId);
            if (token === false) return;
            const exchange = await request(scratch, op, { path, body, token });
            const status = who !== 'lacking' ? [401] : isWrite(op) ? [403, 404] : [403];
            scratch.expectResponse(exchange, { operationId: op.operationId, status });
          },
          1,
          (who) => `${op.operationId} ${describeWho(who)}`,
          [...whos],
          true,
        );
      },
    });
  }

  // Query parameters of every list a target can address: valid, boundary, invalid and hostile values.
  const lists = secured.filter(
    (op) => op.method === 'GET' && isJson(op.successMediaTypes[0]) && op.parameters.some((p) => p.in === 'query'),
  );
  for (const op of lists) {
    const parameters = op.parameters.filter((p) => p.in === 'query');
    const query = fc.record(
      Object.fromEntries(
        parameters.map((p) => [
          p.name,
          fc.option(valueOf(arbitraries, p.schema as Schema), { nil: undefined, freq: 3 }),
        ]),
      ),
      { requiredKeys: [] },
    ) as fc.Arbitrary<Query>;
    checks.push({
      name: 'explore: generated query parameters',
      operationId: asCheck(op),
      on: 'live',
      run: async (ctx) => {
        const ids = targetIds(ctx.target);
        const path = pathOf(op, ids);
        if (!path) return ctx.skip(`needs ${missingIds(op, ids)}`);
        await explore(
          ctx,
          `${op.operationId} query`,
          query,
          async (scratch, q) => {
            const sent = clean(q);
            const exchange = await request(scratch, op, { path, query: serialised(sent) });
            const valid = parameters.every(
              (p) =>
                !(p.name in sent) ||
                spec.validator.validateSchema(`${op.operationId} ${p.name}`, p.schema as Schema, sent[p.name]).valid,
            );
            judgeList(scratch, op, exchange, sent, valid);
          },
          1,
          (q) => JSON.stringify(clean(q)),
          // Every value an enumerated parameter takes is tried first, alone, whatever the seed (the
          // coverage phase Schemathesis runs before random cases): a filter is never left to chance.
          parameters.flatMap((p) => enumOf(p.schema as Schema).map((value) => ({ [p.name]: value }) as Query)),
        );
      },
    });
  }

  // The stateful sequence the spec's links describe: create, follow each link, delete (the link to a
  // DELETE), then each link again (404: use after delete).
  for (const { create, deleteLink } of sequences) {
    const list = collectionOf(create);
    const cases = fc.record({
      created: generatedBody(create),
      sent: fc.tuple(...create.links.map((link) => generatedBody(operationOf(link.operationId)))),
    });
    checks.push({
      name: 'explore: create, follow its links, delete it, then each link answers 404',
      operationId: asCheck(create),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const ids = targetIds(ctx.target);
        const requestPath = pathOf(create, ids);
        if (!requestPath) return ctx.skip(`needs ${missingIds(create, ids)}`);
        await explore(
          ctx,
          `${create.operationId} links`,
          cases,
          async (scratch, { created, sent }) => {
            const exchange = await request(scratch, create, {
              path: requestPath,
              body: withTargetIds(scratch, create, created),
            });
            const body = scratch.expectResponse(exchange, { operationId: create.operationId, status: 200 });
            if (exchange.status !== 200 || body === undefined) return;
            const pathOfLink = (link: SpecLink) => linkParameters(link, requestPath, body);
            // A body without what the links need was reported by its schema check.
            if (Object.values(pathOfLink(deleteLink)).some((v) => v === undefined)) return;
            const follow = (link: SpecLink) =>
              request(scratch, operationOf(link.operationId), {
                path: pathOfLink(link),
                body: withTargetIds(scratch, operationOf(link.operationId), sent[create.links.indexOf(link)]),
              });
            const id = pathOfLink(deleteLink)[createdParameter(deleteLink)!];
            let deleted = false;
            scratch.onCleanup(`delete ${String(id)}, created by ${create.operationId}`, async () => {
              if (!deleted) await follow(deleteLink);
            });
            for (const link of create.links.filter((l) => l !== deleteLink))
              scratch.expectResponse(await follow(link), { operationId: link.operationId, status: 200 });
            // What was created (and updated) is in its list.
            if (list) {
              const { rows, exchange: listed } = await rowsOf(scratch, list, requestPath, id);
              if (rows && !rows.some((row) => row?.id === id))
                scratch.observe(
                  'created-integration-not-listed',
                  list.operationId,
                  `${String(id)}, created by ${create.operationId}, is not in its list`,
                  { exchange: listed },
                );
            }
            scratch.expectResponse(await follow(deleteLink), { operationId: deleteLink.operationId, status: 200 });
            deleted = true;
            // The links that address what was made (their ids come from the answer) must find it
            // gone, answered as an unknown id is; a link to the parent's list still answers 200.
            for (const link of create.links.filter(addressesTheMade)) {
              const after = await follow(link);
              if (after.status === 200)
                scratch.observe(
                  'deleted-integration-still-answers',
                  link.operationId,
                  `${String(id)} answers 200 after it was deleted`,
                  { expected: String(goneStatus(link)), received: '200', exchange: after },
                );
              else scratch.expectResponse(after, { operationId: link.operationId, status: goneStatus(link) });
            }
          },
          2 * create.links.length + 2,
          () => `${create.operationId}, then ${create.links.map((l) => l.operationId).join(', ')}, then each again`,
        );
      },
    });
  }

  // Wrong parent: what a form holds (a submission, an integration), addressed through another form's path.
  const children = secured.filter((op) => identifies(op, 'form') && childKind(op) !== undefined);
  if (children.length > 0)
    checks.push({
      name: "explore: what a form holds, through another form's path, answers 404",
      operationId: asCheck(children[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const other = ctx.target.ids.freeFormId ?? ctx.target.ids.captchaFormId;
        if (!other) return ctx.skip('needs another form (FORMS_API_FREE_FORM_ID or FORMS_API_CAPTCHA_FORM_ID)');
        const setup = await setUp(ctx);
        const own: Ids = { ...targetIds(ctx.target), submission: setup.original?.id };
        // A thing a sequence creates is a temporary one per case; another (a submission) the target's own.
        const reachable = children.filter((op) => creatorOf(childKind(op)!) || own[childKind(op)!] !== undefined);
        if (reachable.length === 0) return ctx.skip('needs FORMS_API_SUBMISSION_ID (a submission of the form)');
        await explore(
          ctx,
          'wrong parent',
          fc.constantFrom(...reachable),
          async (scratch, op) => {
            const kind = childKind(op)!;
            const temporary = creatorOf(kind) ? await createTemporary(scratch, kind) : undefined;
            const id = temporary ? temporary.id : own[kind];
            // Its own content, so only the parent in the path can be wrong (and nothing changes should it be accepted).
            const body = op.jsonBody ? REQUEST_BODIES[bodySchemaName(op) ?? '']?.base(setup) : undefined;
            const exchange = await request(scratch, op, {
              path: pathOf(op, { ...own, form: other, [kind]: id })!,
              body,
            });
            if (exchange.status === 200)
              scratch.observe(
                'reachable-through-another-form',
                op.operationId,
                `${kind} ${String(id)} of form ${ctx.target.ids.formId} answers 200 through form ${other}`,
                { expected: '404', received: '200', exchange },
              );
            // A body is judged against the other form (its fields) and may be refused before the lookup.
            else
              scratch.expectResponse(exchange, {
                operationId: op.operationId,
                status: op.jsonBody && op.statuses.includes(422) ? [404, 422] : [404],
              });
            if (!temporary) return;
            // Still there, and deleted through its own form.
            const removed = await temporary.remove();
            scratch.expectResponse(removed, { operationId: creatorOf(kind)!.deleteLink.operationId, status: 200 });
          },
          4,
          (op) => op.operationId,
          reachable,
        );
      },
    });

  // What another workspace holds: every read of its form, through the foreign form, and every read
  // of the workspace itself (its forms, members, invitations), through the foreign workspace. Each
  // parent is probed on every path that has it, every run.
  const foreignParents = [
    {
      what: "another workspace's form",
      reads: secured.filter((op) => op.method === 'GET' && identifies(op, 'form')),
      id: (target: Target) => target.ids.foreignFormId,
      ids: (id: number): Ids => ({ form: id }),
      setting: 'FORMS_API_FOREIGN_FORM_ID (a form of a workspace the token cannot reach)',
    },
    {
      what: 'another workspace',
      reads: secured.filter((op) => op.method === 'GET' && identifies(op, 'workspace') && !identifies(op, 'form')),
      id: (target: Target) => target.ids.foreignWorkspaceId,
      ids: (id: number): Ids => ({ workspace: id }),
      setting: "FORMS_API_FOREIGN_WORKSPACE_ID (a workspace the token's user is no member of)",
    },
  ];
  for (const parent of foreignParents.filter((p) => p.reads.length > 0))
    checks.push({
      name: `explore: ${parent.what} is refused by every read`,
      operationId: asCheck(parent.reads[0]!),
      on: 'live',
      run: async (ctx) => {
        const foreign = parent.id(ctx.target);
        if (!foreign) return ctx.skip(`set ${parent.setting}`);
        // What the target does not name is an unknown id: refused either way.
        const filled = { ...UNKNOWN_IDS, ...defined(targetIds(ctx.target)), ...parent.ids(foreign) };
        const label = `${Object.keys(parent.ids(foreign))[0]} ${foreign}`;
        await exploreCases(
          ctx,
          `${parent.what}`,
          parent.reads,
          async (scratch, op) => {
            const exchange = await request(scratch, op, { path: pathOf(op, filled)! });
            if (exchange.status === 200)
              scratch.observe('foreign-parent-readable', op.operationId, `${label} of another workspace answers 200`, {
                expected: '401, 403 or 404',
                received: '200',
                exchange,
              });
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: [403, 404] });
          },
          1,
          (op) => `${op.operationId} on ${label}`,
          [],
          // A few cases (one per read that has the parent): every one, every run.
          true,
        );
      },
    });

  // Fresh resources have no children yet. The parent -> child relation comes from the paths: a
  // list is a child of what a sequence creates when its path is the created thing's own path (the
  // delete link's) and more, its last parameter naming the created kind (a form's submissions and
  // integrations, an integration's events). Only a thing made inside a parent the target names (a
  // path parameter, or a body member that `x-identifies` one) is checked: a top-level resource (a
  // workspace) starts with its creator among its members. One case per list, every run.
  const shapeOf = (path: string) => path.replace(/\{[^/}]+\}/g, '{}');
  const freshChildren = sequences.flatMap(({ create, deleteLink }) => {
    const made = pathParameters(operationOf(deleteLink.operationId)).find(
      (p) => p.name === createdParameter(deleteLink),
    );
    const madeInside = pathParameters(create).length > 0 || (create.jsonBody?.identifying.length ?? 0) > 0;
    if (!made?.identifies || !madeInside) return [];
    const itemPath = `${shapeOf(operationOf(deleteLink.operationId).path)}/`;
    return secured
      .filter(
        (op) =>
          op.method === 'GET' &&
          isJson(op.successMediaTypes[0]) &&
          shapeOf(op.path).startsWith(itemPath) &&
          pathParameters(op).at(-1)?.identifies === made.identifies,
      )
      .map((list) => ({ list, kind: made.identifies! }));
  });
  for (const { list, kind } of freshChildren)
    checks.push({
      name: 'explore: a resource the run just made lists no children yet',
      operationId: asCheck(list),
      on: 'live',
      writes: true,
      exhaustive: true,
      run: async (ctx) =>
        exploreCases(
          ctx,
          `fresh ${kind}`,
          [list],
          async (scratch) => {
            const { id } = await createTemporary(scratch, kind);
            const path = pathOf(list, { ...targetIds(ctx.target), [kind]: id });
            if (!path) return scratch.skip(`needs ${missingIds(list, targetIds(ctx.target))}`);
            const exchange = await request(scratch, list, { path });
            const body = scratch.expectResponse(exchange, { operationId: list.operationId, status: 200 }) as any;
            if (exchange.status !== 200 || body === undefined) return;
            const rows: unknown[] | undefined = Array.isArray(body)
              ? body
              : Array.isArray(body?.data)
                ? body.data
                : undefined;
            const total = body?.meta?.total;
            if ((rows?.length ?? 0) === 0 && (total === undefined || total === 0)) return;
            const ids = (rows ?? []).map((r) => (r as { id?: unknown })?.id ?? '(no id)');
            scratch.observe(
              'fresh-resource-has-children',
              list.operationId,
              `${kind} ${String(id)}, just made by ${creatorOf(kind)!.create.operationId}, lists ${rows?.length ?? 0} row(s)${ids.length > 0 ? ` (${ids.slice(0, 5).map(String).join(', ')})` : ''}${total === undefined ? '' : ` and meta.total ${String(total)}`}`,
              { expected: 'no rows, meta.total 0', received: `${rows?.length ?? 0} row(s)`, exchange },
            );
          },
          2,
          () => `${creatorOf(kind)!.create.operationId}, then ${list.operationId} of what it made`,
          [],
          true,
        ),
    });

  // Another user's real token on every read of the target's workspace and forms: 403 or 404,
  // never the data. The target's own token reads each first (the case is moot where it cannot),
  // so a service that decides access by the resource alone (a cache keyed by the form, not by
  // who asks) is caught as well as one that checks no membership. Reads only: a write with a
  // token that should not reach real data is not sent.
  const workspaceItem = operations.find(
    (op) => pathParameters(op).length === 1 && identifies(op, 'workspace') && op.path.endsWith('}'),
  );
  const workspaceList = workspaceItem && collectionOf(workspaceItem);
  const otherUserReads = secured.filter(
    (op) => op.method === 'GET' && (identifies(op, 'workspace') || identifies(op, 'form')),
  );
  if (otherUserReads.length > 0)
    checks.push({
      name: "explore: another user's token is refused by every read of the target's workspace and forms",
      operationId: asCheck(otherUserReads[0]!),
      on: 'live',
      exhaustive: true,
      run: async (ctx) => {
        const other = ctx.token('otherUserToken');
        // The token must be a real one of a user outside the workspace, or every refusal proves
        // nothing: the list of the user's workspaces (the collection of a workspace's own path) says.
        if (workspaceList) {
          const listed = await request(ctx, workspaceList, { path: {}, token: other });
          const body = ctx.json(listed);
          const rows: unknown = body.ok
            ? Array.isArray(body.value)
              ? body.value
              : (body.value as any)?.data
            : undefined;
          if (listed.status !== 200 || !Array.isArray(rows))
            return ctx.fail({
              kind: 'setup',
              message: `${tokenVariable('otherUserToken')} was answered ${listed.status ?? 'nothing'} by ${workspaceList.operationId}: set a valid token (every ability) of another user`,
              exchange: listed,
            });
          if (rows.some((w) => (w as { id?: unknown })?.id === ctx.target.ids.workspaceId))
            return ctx.skip(
              `the user of ${tokenVariable('otherUserToken')} is a member of workspace ${ctx.target.ids.workspaceId}: set a token of a user outside it`,
            );
        }
        const ids: Record<string, unknown> = { ...targetIds(ctx.target) };
        for (const kind of new Set(otherUserReads.map(childKind)))
          if (kind && ids[kind] === undefined && creatorOf(kind) && ctx.target.write)
            ids[kind] = (await createTemporary(ctx, kind)).id;
        const reachable = otherUserReads.filter((op) => pathOf(op, ids));
        await exploreCases(
          ctx,
          "another user's token",
          reachable,
          async (scratch, op) => {
            const path = pathOf(op, ids)!;
            const own = await request(scratch, op, { path });
            if (own.status !== 200) return;
            const exchange = await request(scratch, op, { path, token: other });
            if (exchange.status === 200)
              scratch.observe(
                'other-user-reads-the-target',
                op.operationId,
                `a token of another user (no member of workspace ${ctx.target.ids.workspaceId}) answers 200`,
                { expected: '403 or 404', received: '200', exchange },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: [403, 404] });
          },
          2,
          (op) => `${op.operationId} with another user's token`,
          [],
          true,
        );
      },
    });

  // Request bodies the schemas forbid, on every write whose body has a base: each must be refused with a 4xx, and change nothing.
  const bodyWrites = writes.filter((op) => REQUEST_BODIES[bodySchemaName(op) ?? '']);
  if (bodyWrites.length > 0)
    checks.push({
      name: 'explore: request bodies the schema forbids are refused',
      operationId: asCheck(bodyWrites[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const ids = await writeIds(ctx, bodyWrites, setup);
        const cases = bodyWrites.flatMap((op) => {
          const name = bodySchemaName(op)!;
          const base = REQUEST_BODIES[name]!.base(setup);
          const path = pathOf(op, ids);
          if (!base || !path) return [];
          return forbiddenBodies(spec, arbitraries, name, base).map((c) => ({ ...c, op, path, base, name }));
        });
        if (cases.length === 0) return ctx.skip('no write the target can address (set FORMS_API_SUBMISSION_ID)');
        // A number sent as text to each request schema, every run: the class a lenient reader lets through.
        const examples = [...new Set(cases.map((c) => c.name))].flatMap((name) =>
          cases.filter((c) => c.name === name && c.label.includes('number as text')).slice(0, 1),
        );
        await exploreCases(
          ctx,
          'forbidden request bodies',
          cases,
          async (scratch, c) => {
            const { op } = c;
            const exchange = await request(scratch, op, { path: c.path, body: c.body });
            const ok = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
            // Whatever the service accepted is undone: an update put back, a creation deleted.
            if (ok) undo(scratch, op, c.path, c.base, exchange);
            // A 500 is documented only for a body the request schema names as failing the service (x-server-error-when).
            if (exchange.status === 500 && spec.validator.failsTheService(op.operationId, c.body)) {
              scratch.expectResponse(exchange, { operationId: op.operationId, status: 500 });
              return;
            }
            const traits = [
              'body-invalid',
              ...(c.label.includes('number as text') ? ['body-holds-number-as-text'] : []),
            ];
            if (ok)
              scratch.observe(
                'forbidden-body-accepted',
                op.operationId,
                `a body the schema forbids (${c.label}) was accepted with ${exchange.status}`,
                {
                  expected: '422',
                  received: String(exchange.status),
                  exchange,
                  traits,
                  symptom: { status: exchange.status, at: [c.at] },
                },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: 422, traits });
          },
          1,
          (c) => `${c.op.operationId} ${c.label}: ${truncate(JSON.stringify(c.body) ?? String(c.body), 200)}`,
          examples,
        );
      },
    });

  /** Registers a cleanup that sends an update's base body again (a submission's own answers, a fixture's own settings). */
  function restoreAfterwards(ctx: CheckContext, op: SpecOperation, path: Record<string, unknown>, base: unknown): void {
    ctx.onCleanup(`restore what ${op.operationId} changed`, async () => {
      const restored = await request(ctx, op, { path, body: base });
      if (restored.status !== 200)
        ctx.fail({ kind: 'setup', message: `restoring answered ${restored.status ?? 'nothing'}`, exchange: restored });
    });
  }

  /** Registers the deletion (through the spec's delete link) of what an accepted creation created. */
  function deleteCreated(
    ctx: CheckContext,
    op: SpecOperation,
    path: Record<string, unknown>,
    exchange: Exchange,
  ): void {
    const sequence = sequences.find((s) => s.create === op);
    const parsed = ctx.json(exchange);
    if (!sequence || !parsed.ok) return;
    const deletePath = linkParameters(sequence.deleteLink, path, parsed.value);
    if (Object.values(deletePath).some((v) => v === undefined)) return;
    ctx.onCleanup(`delete what ${op.operationId} created`, async () => {
      await request(ctx, operationOf(sequence.deleteLink.operationId), { path: deletePath });
    });
  }

  /** Undoes an accepted write: an update gets its base body back, a creation is deleted. */
  function undo(
    ctx: CheckContext,
    op: SpecOperation,
    path: Record<string, unknown>,
    base: unknown,
    exchange: Exchange,
  ) {
    if (op.method === 'PUT' || op.method === 'PATCH') restoreAfterwards(ctx, op, path, base);
    if (op.method === 'POST') deleteCreated(ctx, op, path, exchange);
  }

  // Writes without the right: no token, a wrong token, a token lacking the ability, another workspace's form.
  // Each must be refused, and change nothing: what it addresses is read back after every one. A
  // write takes a body whose change a read-back can see (REQUEST_BODIES), or none. It addresses a
  // thing of the form or workspace (a creation adds one), never the form or the workspace itself,
  // and a removal only what the check made: should a tenant wrongly accept it, the user's own data
  // is not what goes.
  const withoutTheRight = writes.filter((op) => {
    const kind = childKind(op);
    return (
      (!op.jsonBody || REQUEST_BODIES[bodySchemaName(op) ?? ''] !== undefined) &&
      (op.method === 'POST' ? collectionOf(op) !== undefined || kind !== undefined : kind !== undefined) &&
      (op.method !== 'DELETE' || (kind !== undefined && creatorOf(kind) !== undefined))
    );
  });
  if (withoutTheRight.length > 0)
    checks.push({
      name: "explore: writes with no token, a wrong token, a token lacking the ability or on another workspace's form change nothing",
      operationId: asCheck(withoutTheRight[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const ids = await writeIds(ctx, withoutTheRight, setup);
        const reachable = withoutTheRight.filter(
          (op) => pathOf(op, ids) && (!op.jsonBody || REQUEST_BODIES[bodySchemaName(op) ?? '']?.changed(setup)),
        );
        if (reachable.length === 0) return ctx.skip('no write the target can address (set FORMS_API_SUBMISSION_ID)');
        // What each list a creation adds to held before: a read-back compares against it.
        const before = new Map<SpecOperation, Set<unknown>>();
        for (const list of new Set(reachable.filter((op) => op.method === 'POST').map(collectionOf)))
          if (list)
            before.set(list, new Set(((await rowsOf(ctx, list, pathOf(list, ids)!)).rows ?? []).map((r) => r.id)));
        const whos: Who[] = [
          'none',
          'wrong',
          'lacking',
          ...(ctx.target.ids.foreignFormId ? (['foreign'] as const) : []),
        ];
        await explore(
          ctx,
          'writes without the right',
          fc.tuple(fc.constantFrom(...reachable), fc.constantFrom(...whos)),
          async (scratch, [op, who]) => {
            const token =
              who === 'none'
                ? null
                : who === 'wrong'
                  ? WRONG_TOKEN
                  : who === 'lacking'
                    ? lackingToken(scratch, op.operationId)
                    : undefined;
            if (token === false) return;
            const parent = who === 'foreign' ? ctx.target.ids.foreignFormId! : ids.form;
            const path = pathOf(op, { ...ids, form: parent })!;
            const table = REQUEST_BODIES[bodySchemaName(op) ?? ''];
            const body = op.jsonBody ? table?.changed(setup) : undefined;
            const exchange = await request(scratch, op, { path, body, token });
            const expected = who === 'foreign' ? [403, 404] : who === 'lacking' ? [403] : [401];
            const accepted = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
            if (accepted)
              scratch.observe(
                'write-without-the-right-accepted',
                op.operationId,
                `${op.operationId} ${describeWho(who)} answered ${exchange.status}`,
                { expected: expected.join(' or '), received: String(exchange.status), exchange },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: expected });
            // Read back: nothing created, changed or deleted (and whatever was is undone).
            if (accepted && op.method === 'POST') deleteCreated(scratch, op, path, exchange);
            const list = collectionOf(op);
            if (!list) return;
            const kind = childKind(op);
            const id = kind === undefined ? undefined : ids[kind];
            const snapshot = before.get(list);
            const { rows } = await rowsOf(scratch, list, pathOf(list, ids)!, snapshot ? undefined : id);
            if (!rows) return;
            const mine = rows.find((r) => r.id === id);
            const created = snapshot ? rows.filter((r) => !snapshot.has(r.id)) : [];
            const remove = writes.find((w) => w.method === 'DELETE' && collectionOf(w) === list);
            for (const extra of created)
              if (remove)
                scratch.onCleanup(`delete ${String(extra.id)}`, async () => {
                  await request(scratch, remove, { path: pathOf(remove, { ...ids, [childKind(remove)!]: extra.id })! });
                });
            // A temporary thing of the check is on the list's first page; a submission may be further on.
            const gone = id !== undefined && !mine && creatorOf(kind!) !== undefined;
            const changedTo = mine && body ? changedIn(mine, body, table?.base(setup)) : undefined;
            const changed =
              created.length > 0
                ? `${created.map((r) => String(r.id)).join(', ')} was created`
                : gone
                  ? `${kind} ${String(id)} is gone`
                  : changedTo
                    ? `${kind} ${String(id)} was changed (it holds ${changedTo})`
                    : undefined;
            if (!changed) return;
            if (changedTo) restoreAfterwards(scratch, op, pathOf(op, ids)!, table?.base(setup));
            if (gone)
              scratch.fail({
                kind: 'setup',
                message: `the check's ${kind} ${String(id)} was deleted by the case; later cases skip it`,
              });
            scratch.observe(
              'refused-write-changed-state',
              op.operationId,
              `${changed} after ${op.operationId} ${describeWho(who)}`,
              { exchange },
            );
          },
          3,
          ([op, who]) => `${op.operationId} ${describeWho(who)}`,
          // A covering set first, whatever the seed: each write and each kind of caller at least once.
          reachable.map((op, i) => [op, whos[i % whos.length]!] as [SpecOperation, Who]),
        );
      },
    });

  // An update reads back as updated, through the spec's links of the update (to its list). The body
  // must fit the tenant's form (REQUEST_BODIES), hence a submission's update only.
  for (const op of writes.filter(
    (w) =>
      (w.method === 'PUT' || w.method === 'PATCH') &&
      w.links.length > 0 &&
      !sequences.some((s) => s.create === w) &&
      childKind(w) === 'submission',
  ))
    checks.push({
      name: 'explore: an updated submission reads back as updated',
      operationId: asCheck(op),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const { original, fields, changedField: field } = setup;
        if (setup.submissionId === undefined)
          return ctx.skip('set FORMS_API_SUBMISSION_ID (a submission the suite may update)');
        if (!original)
          return ctx.skip(`submission ${setup.submissionId} was not found in form ${ctx.target.ids.formId}`);
        if (!field) return ctx.skip(`submission ${setup.submissionId} has no text answer to change`);
        const requestPath = pathOf(op, { ...targetIds(ctx.target), submission: original.id })!;
        restoreAfterwards(ctx, op, requestPath, REQUEST_BODIES[bodySchemaName(op) ?? '']?.base(setup));
        const omitsRequired = fields.some((f) => (f as { required?: boolean }).required && f.id !== field);
        // A text answer the service stores as sent (no surrounding spaces, which a framework may trim).
        const text = (
          arbitraries.valid({ type: 'string', minLength: 1, maxLength: 40 }) as fc.Arbitrary<string>
        ).filter((v) => v.trim() === v && v.length > 0);
        await explore(
          ctx,
          'updated submission reads back',
          // Only the change would drop file answers for good (see keepsItsFiles): never on such a submission.
          fc.record({
            value: text,
            onlyTheChange: fileAnswersOf(original, fields).length > 0 ? fc.constant(false) : fc.boolean(),
          }),
          async (scratch, { value, onlyTheChange }) => {
            const body = onlyTheChange
              ? { [field]: value }
              : { ...answersToSendBack(original, fields), [field]: value };
            const traits = onlyTheChange && omitsRequired ? ['body-omits-required-field'] : [];
            const exchange = await request(scratch, op, { path: requestPath, body });
            const updated = scratch.expectResponse(exchange, { operationId: op.operationId, status: 200, traits });
            if (exchange.status !== 200) return;
            for (const link of op.links) {
              const { rows, exchange: listed } = await rowsOf(
                scratch,
                operationOf(link.operationId),
                linkParameters(link, requestPath, updated),
                original.id,
              );
              const found = rows?.find((s) => s.id === original.id) as { data: Record<string, unknown> } | undefined;
              if (!found) {
                scratch.observe(
                  'updated-submission-not-read-back',
                  op.operationId,
                  `submission ${original.id} is not in its form's list after the update`,
                  { exchange: listed },
                );
                continue;
              }
              if (JSON.stringify(found.data[field]) !== JSON.stringify(value))
                scratch.observe(
                  'updated-submission-not-read-back',
                  op.operationId,
                  `answer ${field} reads back as ${JSON.stringify(found.data[field])}, not as updated`,
                  { expected: JSON.stringify(value), received: JSON.stringify(found.data[field]), exchange: listed },
                );
              // Answers not sent keep their values (the contract: only the fields to change are sent).
              if (onlyTheChange) {
                const changed = Object.keys(original.data).filter(
                  (key) =>
                    key !== field &&
                    !META_KEYS.has(key) &&
                    JSON.stringify(found.data[key]) !== JSON.stringify(original.data[key]),
                );
                if (changed.length > 0)
                  scratch.observe(
                    'unsent-answers-changed',
                    op.operationId,
                    `answers not sent changed on update: ${changed.join(', ')}`,
                    {
                      exchange: listed,
                      symptom: { at: changed, received: changed.map((key) => jsonType(found.data[key])) },
                    },
                  );
              }
            }
          },
          3,
          ({ value, onlyTheChange }) =>
            `${onlyTheChange ? 'only the changed answer' : 'every answer'}, a text answer set to ${JSON.stringify(value)}`,
          // Every answer sent first, whatever the seed: on a form with required fields only that one can be stored.
          [{ value: 'read back as updated', onlyTheChange: false }],
        );
      },
    });

  // Read-after-write and preserved fields, on every write whose answer carries what it wrote (read-after-write.ts).
  checks.push(
    ...readAfterWriteChecks({
      spec,
      operations,
      creations: sequences.map(({ create, deleteLink }) => ({
        create,
        kind: pathParameters(operationOf(deleteLink.operationId)).find((p) => p.name === createdParameter(deleteLink))
          ?.identifies,
      })),
      explore: (ctx, name, arbitrary, run, requestsPerCase, describe, examples, share) =>
        explore(ctx, name, arbitrary, run, requestsPerCase, describe, examples, false, share),
      request,
      rowsOf,
      generatedBody,
      safe: (op, body) => (REQUEST_BODIES[bodySchemaName(op) ?? '']?.safe ?? ((b: unknown) => b))(body),
      deleteCreated,
      restoreAfterwards,
      targetIds: (ctx) => targetIds(ctx.target),
    }),
  );

  // Cheap exhaustive checks first: they take their few requests off the top of the budget.
  checks.sort((a, b) => Number(b.exhaustive ?? false) - Number(a.exhaustive ?? false));
  const byOperation = new Map<string, Check[]>();
  for (const check of checks)
    byOperation.set(check.operationId, [...(byOperation.get(check.operationId) ?? []), check]);
  return [...byOperation].map(([operationId, list]) => ({ operationId: operationId as OperationId, checks: list }));
}

/** The values an enumerated schema allows (none for any other). */
const enumOf = (schema: Schema): unknown[] =>
  typeof schema === 'object' && Array.isArray(schema.enum) ? schema.enum : [];
const defined = (ids: Ids): Ids => Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined));
const isJson = (mediaType: string | undefined) => mediaType !== undefined && /json/.test(mediaType);
const clean = (q: Query): Query => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
/** Generated query values as a client would serialise them (arrays repeated, objects as JSON). */
const serialised = (query: Query): Query =>
  Object.fromEntries(
    Object.entries(query).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v,
    ]),
  );

/** The first text `changed` holds that `base` does not, when `row` holds it too: what a write changed. */
function changedIn(row: unknown, changed: unknown, base: unknown): string | undefined {
  const texts = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value !== null && typeof value === 'object'
        ? Object.values(value).flatMap(texts)
        : [];
  const before = new Set(texts(base));
  const held = JSON.stringify(row);
  return texts(changed)
    .filter((text) => !before.has(text))
    .map((text) => JSON.stringify(text))
    .find((text) => held.includes(text));
}

/** The parameter of a sequence's delete link that takes the created id from the creation's answer. */
const createdParameter = (deleteLink: SpecLink): string | undefined =>
  Object.entries(deleteLink.parameters).find(([, e]) => e.startsWith('$response.body'))?.[0];

/**
 * A list answer to generated query values: what the schema allows is answered 200 (never refused);
 * what it forbids is read or refused with a documented 4xx (the published contract reads page sizes
 * and filters leniently), never a 5xx; and on every 200 the list's promises hold: a page holds at
 * most the size asked for and never more than 100, a status filter lists only that status, and
 * rows with a creation time come newest first.
 */
function judgeList(ctx: CheckContext, op: SpecOperation, exchange: Exchange, query: Query, valid: boolean): void {
  const { operationId } = op;
  const refusals = op.statuses.filter((s) => s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 429);
  const body = ctx.expectResponse(exchange, { operationId, status: valid ? [200] : [200, ...refusals] }) as
    { data?: any[]; meta?: any } | undefined;
  if (exchange.status !== 200 || !body || !Array.isArray(body.data)) return;
  const perPage =
    typeof query.per_page === 'number' && Number.isInteger(query.per_page) && query.per_page >= 1
      ? Math.min(query.per_page, 100)
      : 100;
  if (body.data.length > perPage) {
    ctx.observe(
      'page-over-its-bound',
      operationId,
      `a page of ${body.data.length} rows for per_page=${String(query.per_page ?? '(default)')}`,
      { expected: `at most ${perPage}`, received: String(body.data.length), exchange },
    );
  }
  const meta = body.meta;
  if (meta && typeof meta.per_page === 'number' && meta.per_page > 100)
    ctx.observe('page-over-its-bound', operationId, `meta.per_page is ${meta.per_page}`, {
      expected: 'at most 100',
      received: String(meta.per_page),
      exchange,
    });
  if (query.status === 'completed' || query.status === 'partial') {
    const other = body.data.find((s) => s?.data?.status !== undefined && s.data.status !== query.status);
    if (other)
      ctx.observe(
        'filter-lets-other-status-through',
        operationId,
        `${other.id} has status ${other.data.status} under status=${String(query.status)}`,
        { exchange },
      );
  }
}

/** Evaluates a link's runtime expressions: `$request.path.<name>` and `$response.body#/<pointer>`. */
export function linkParameters(
  link: SpecLink,
  requestPath: Record<string, unknown>,
  responseBody: unknown,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(link.parameters).map(([name, expression]) => {
      if (expression.startsWith('$request.path.'))
        return [name, requestPath[expression.slice('$request.path.'.length)]];
      if (expression.startsWith('$response.body#')) {
        const pointer = expression
          .slice('$response.body#'.length)
          .split('/')
          .slice(1)
          .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
        return [name, pointer.reduce<any>((node, key) => node?.[key], responseBody)];
      }
      throw new Error(`link ${link.name}: runtime expression ${expression} is not one the explorer evaluates`);
    }),
  );
}

type UntypedCall = (
  path: string,
  options: { params: { path: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown },
) => Promise<unknown>;

/**
 * Sends an operation of the spec with path values, query and body chosen at run time (so through
 * the target's client without its path types), with the main token or `token`. A body goes only
 * to an operation that takes one.
 */
function request(
  ctx: CheckContext,
  op: SpecOperation,
  r: { path: Record<string, unknown>; query?: Query; body?: unknown; token?: TokenChoice },
): Promise<Exchange> {
  const client = ctx.client(r.token) as unknown as Record<string, UntypedCall>;
  const call = client[op.method];
  if (!call) throw new Error(`the client has no ${op.method} (${op.operationId})`);
  const options = {
    params: { path: r.path, ...(r.query ? { query: r.query } : {}) },
    ...(op.jsonBody && r.body !== undefined ? { body: r.body } : {}),
  };
  return ctx.send(() => call.call(client, op.path, options));
}

const describeWho = (who: Who) =>
  who === 'none'
    ? 'with no token'
    : who === 'wrong'
      ? 'with a wrong token'
      : who === 'forged'
        ? "with a forged token (the target's token id, another secret)"
        : who === 'lacking'
          ? 'with a token lacking the ability'
          : "on another workspace's form";

/**
 * The target's token id with another secret (`id|secret`, as Sanctum issues them), registered for
 * redaction like the real one; false when the token has no id (the case is then moot). A new
 * secret of the same length, not an edit of the real one, so nothing of the real secret is sent.
 */
function forgedToken(ctx: CheckContext): string | false {
  const real = ctx.target.tokens.token;
  const bar = real?.indexOf('|') ?? -1;
  if (!real || bar <= 0) return false;
  const length = Math.max(real.length - bar - 1, 8);
  const forged = `${real.slice(0, bar)}|${randomBytes(length).toString('base64url').slice(0, length)}`;
  ctx.extraSecrets.set(forged, '$FORMS_API_FORGED_TOKEN');
  return forged;
}

/** A token of the target without the operation's ability, or false when it holds none (the case is then moot). */
function lackingToken(ctx: CheckContext, operationId: string): string | false {
  try {
    return ctx.tokensWithoutAbilityFor(operationId as OperationId)[0] ?? false;
  } catch (error) {
    if (error instanceof SkipCheck) return false;
    throw error;
  }
}

const truncate = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/** A parameter's value: valid most often, else an edge, a forbidden or a hostile one. */
function valueOf(arbitraries: ReturnType<typeof schemaArbitraries>, schema: Schema): fc.Arbitrary<unknown> {
  const pick = (values: LabelledValue[]) => (values.length > 0 ? [fc.constantFrom(...values.map((v) => v.value))] : []);
  return fc.oneof(
    { weight: 4, arbitrary: arbitraries.valid(schema) },
    ...pick(arbitraries.boundaries(schema)).map((arbitrary) => ({ weight: 2, arbitrary })),
    ...pick(arbitraries.invalid(schema)).map((arbitrary) => ({ weight: 2, arbitrary })),
    ...pick(arbitraries.hostile(schema)).map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** Values a server should refuse in place of a member, whatever the member's schema (the validator says which it forbids). */
const FOREIGN_SHAPES: LabelledValue[] = [
  { label: 'text', value: 'text' },
  { label: 'number as text', value: '17' },
  { label: 'integer', value: 17 },
  { label: 'fraction', value: 1.5 },
  { label: 'boolean', value: true },
  { label: 'null', value: null },
  { label: 'empty array', value: [] },
  { label: 'array for a scalar', value: ['text'] },
  { label: 'array of arrays', value: [[1]] },
  { label: 'array of booleans', value: [true] },
  { label: 'object', value: { nested: 'text' } },
];

/**
 * Bodies the schema `name` forbids, built from a valid `base` body: the whole body of a wrong type,
 * each required member missing, and each member (and each member of an object member) replaced by
 * a forbidden, edge or hostile value from the converter, or a value of another shape. Only bodies
 * the spec's validator refuses are kept, each with a label saying what was changed.
 */
/** A JSON pointer (RFC 6901) to the place the keys name. */
const pointer = (...keys: string[]): string =>
  keys.map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

export function forbiddenBodies(
  spec: SpecArtifacts,
  arbitraries: ReturnType<typeof schemaArbitraries>,
  name: string,
  base: Record<string, any>,
): Array<{ label: string; body: unknown; at: string }> {
  const ref = { $ref: `#/components/schemas/${name}` };
  const schema = arbitraries.resolve(ref) as Record<string, any>;
  const replacements = (member: Schema): LabelledValue[] => [
    ...arbitraries.invalid(member),
    ...arbitraries.boundaries(member),
    ...arbitraries.hostile(member),
    ...FOREIGN_SHAPES,
  ];
  // `at`: the JSON pointer of the place the case makes forbidden ('' for the body as a whole).
  const out: Array<{ label: string; body: unknown; at: string }> = arbitraries
    .invalid(ref)
    .filter((v) => !v.label.startsWith('missing required') && !v.label.startsWith('unknown member'))
    .map((v) => ({ label: `body: ${v.label}`, body: v.value, at: '' }));
  for (const required of (schema.required ?? []) as string[]) {
    const { [required]: _dropped, ...rest } = base;
    out.push({ label: `missing required ${required}`, body: rest, at: pointer(required) });
  }
  const members: Array<[string, Schema]> = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  // A map's values (answers by field id): each answer the base holds stands for them all, so take the first.
  const firstKey = Object.keys(base).find((k) => !(k in (schema.properties ?? {})));
  if (firstKey && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    members.push([firstKey, schema.additionalProperties]);
  for (const [member, memberSchema] of members) {
    for (const v of replacements(memberSchema))
      out.push({ label: `${member}: ${v.label}`, body: { ...base, [member]: v.value }, at: pointer(member) });
    const inner = arbitraries.resolve(memberSchema) as Record<string, any>;
    const innerBase = base[member];
    if (typeof inner !== 'object' || !inner.properties || !innerBase || typeof innerBase !== 'object') continue;
    for (const [key, keySchema] of Object.entries(inner.properties as Record<string, Schema>))
      for (const v of replacements(keySchema))
        out.push({
          label: `${member}.${key}: ${v.label}`,
          body: { ...base, [member]: { ...innerBase, [key]: v.value } },
          at: pointer(member, key),
        });
  }
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = JSON.stringify(c.body);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return !spec.validator.validateSchema(`explore body ${name}`, ref, c.body).valid;
  });
}
