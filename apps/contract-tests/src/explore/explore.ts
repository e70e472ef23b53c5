// The explorer: cases generated from the spec's own schemas (fast-check: seeds, shrinking), judged
// on every exchange like every other check (status documented, content type, body valid for that
// status; no 5xx; no or a wrong token 401, a token lacking the ability 403; the list promises),
// stateful sequences that follow the spec's `links`, wrong parents and another workspace's form.
// Each finding is the shrunk case, with its curl repro and the seed; failures are matched to the
// ledger by situation by the runner, as today's checks are.
import fc from 'fast-check';
import { OPERATIONS, operationById, type OperationId } from '@forms-api/types';
import { CheckContext } from '../check-context.js';
import { createLedgerIndex, type LedgerIndex } from '../drift.js';
import { SkipCheck, type Exchange, type Failure } from '../model.js';
import type { SpecArtifacts } from '../spec.js';
import type { Check, OperationSuite } from '../suites/types.js';
import {
  answersOf,
  answersToSendBack,
  createTemporaryIntegration,
  deleteIntegrationAfterwards,
  findSubmission,
  formFields,
  integrationBody,
  META_KEYS,
  restoreAfterwards,
  stringField,
} from '../suites/helpers.js';
import { schemaArbitraries, type LabelledValue, type Schema } from './schema-arbitrary.js';

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

type Query = Record<string, unknown>;

/** What one generated case sent and what was wrong with it (unexpected) or known. */
interface Judged {
  readonly unexpected: Failure[];
  readonly known: Array<{ failure: Failure; entryIds: string[] }>;
  readonly requests: number;
}

/** Shared by the checks of one target: the budget left and when time runs out. */
interface Allowance {
  requestsLeft: number;
  readonly deadline: number;
  checksLeft: number;
}

/** The explore checks: one per list operation's query, auth per operation, the links sequence, wrong parents, the foreign form. */
export function exploreSuite(spec: SpecArtifacts, options: ExploreOptions): OperationSuite[] {
  const arbitraries = schemaArbitraries(spec.bundle);
  const ledger = createLedgerIndex(spec.ledger);
  let allowance: Allowance | undefined;
  const checks: Check[] = [];
  const begin = (ctx: CheckContext): Allowance => {
    // One allowance per target: the first explore check of a target starts it.
    if (!allowance || allowance.checksLeft <= 0)
      allowance = {
        requestsLeft: options.budget,
        deadline: Date.now() + options.timeLimitMs,
        checksLeft: checks.filter((c) => !c.writes || ctx.target.write).length,
      };
    return allowance;
  };

  /**
   * Runs a property over generated cases within this check's share of the budget; records the
   * shrunk counterexample's unexpected failures (with the seed) and one example of each known drift.
   */
  async function explore<T>(
    ctx: CheckContext,
    name: string,
    arbitrary: fc.Arbitrary<T>,
    run: (scratch: CheckContext, value: T) => Promise<void>,
    requestsPerCase: number,
    describe: (value: T) => string,
    /** Cases tried first, whatever the seed (one of each class a ledger entry depends on). */
    examples: T[] = [],
  ): Promise<void> {
    const a = begin(ctx);
    const share = Math.floor(a.requestsLeft / Math.max(1, a.checksLeft));
    a.checksLeft--;
    const numRuns = Math.max(1, Math.floor(share / requestsPerCase / 2)); // half for shrinking
    let spent = 0;
    let last: { judged: Judged; value: T } | undefined;
    const known = new Map<string, Failure>();
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        if (spent >= share || Date.now() > a.deadline || ctx.signal.aborted) return true;
        const scratch = new CheckContext(ctx.target, ctx.spec, ctx.signal);
        try {
          await run(scratch, value);
        } catch (error) {
          if (!(error instanceof SkipCheck))
            scratch.fail({
              kind: 'setup',
              message: `the generated case threw: ${error instanceof Error ? error.message : String(error)}`,
            });
        } finally {
          // Whatever a case created is undone before the next one (and before shrinking repeats it).
          for (const cleanup of scratch.cleanups.reverse()) {
            try {
              await cleanup.run();
            } catch (error) {
              scratch.fail({
                kind: 'setup',
                message: `cleanup "${cleanup.label}" failed: ${error instanceof Error ? error.message : String(error)} — remove it by hand`,
              });
            }
          }
        }
        const judged = judge(scratch, ledger);
        spent += judged.requests;
        for (const k of judged.known) for (const id of k.entryIds) if (!known.has(id)) known.set(id, k.failure);
        if (judged.unexpected.length === 0) return true;
        last = { judged, value };
        return false;
      }),
      {
        seed: options.seed,
        numRuns,
        examples: examples.map((example) => [example] as [T]),
        endOnFailure: false,
        interruptAfterTimeLimit: Math.max(1, a.deadline - Date.now()),
        markInterruptAsFailure: false,
      },
    );
    a.requestsLeft -= spent;
    if (result.failed && last) {
      const replay = `found by the explorer (${name}; shrunk case: ${describe(last.value)}); replay: --seed ${options.seed}`;
      for (const failure of last.judged.unexpected) ctx.fail({ ...failure, message: `${failure.message} — ${replay}` });
    }
    for (const failure of known.values()) ctx.fail(failure);
  }

  // Query parameters of the list operations: valid, boundary, invalid and hostile values.
  for (const operationId of ['listWorkspaceForms', 'listFormSubmissions'] as const) {
    const parameters = queryParameters(spec, operationId, arbitraries.resolve);
    const query = fc.record(
      Object.fromEntries(
        parameters.map((p) => [p.name, fc.option(valueOf(arbitraries, p.schema), { nil: undefined, freq: 3 })]),
      ),
      { requiredKeys: [] },
    ) as fc.Arbitrary<Query>;
    checks.push({
      name: 'explore: generated query parameters',
      operationId,
      on: 'live',
      run: (ctx) =>
        explore(
          ctx,
          `${operationId} query`,
          query,
          async (scratch, q) => {
            const sent = clean(q);
            const exchange = await sendList(scratch, operationId, sent);
            const valid = parameters.every(
              (p) =>
                !(p.name in sent) ||
                spec.validator.validateSchema(`${operationId} ${p.name}`, p.schema, sent[p.name]).valid,
            );
            judgeList(scratch, operationId, exchange, sent, valid);
          },
          1,
          (q) => JSON.stringify(clean(q)),
        ),
    });
  }

  // Authentication and abilities on every operation that needs a token.
  const secured = (Object.keys(OPERATIONS) as OperationId[]).filter(
    (id) => !OPERATIONS[id].public && OPERATIONS[id].method === 'GET',
  );
  checks.push({
    name: 'explore: no token, a wrong token, a token lacking the ability',
    operationId: 'getForm',
    on: 'live',
    run: (ctx) =>
      // An operation on an integration needs one the target names: an unknown id may answer 404 before the token is judged.
      explore(
        ctx,
        'auth',
        fc.tuple(
          fc.constantFrom(
            ...secured.filter((id) => !OPERATIONS[id].path.includes('{integrationid}') || ctx.target.ids.integrationId),
          ),
          fc.constantFrom('none', 'wrong', 'lacking') as fc.Arbitrary<'none' | 'wrong' | 'lacking'>,
        ),
        async (scratch, [operationId, who]) => {
          let token: string | null;
          if (who === 'none') token = null;
          else if (who === 'wrong') token = WRONG_TOKEN;
          else {
            const lacking = scratch.tokensWithoutAbilityFor(operationId).at(0);
            if (!lacking) return;
            token = lacking;
          }
          const exchange = await get(scratch, operationId, token);
          scratch.expectResponse(exchange, { operationId, status: who === 'lacking' ? 403 : 401 });
        },
        1,
        ([operationId, who]) =>
          `${operationId} with ${who === 'none' ? 'no token' : who === 'wrong' ? 'a wrong token' : 'a token lacking the ability'}`,
      ),
  });

  // The stateful sequence the spec's links describe: create, then each link, delete, then each link again (404).
  const links = linksOf(spec, 'createFormIntegration');
  const generatedIntegrationBody = arbitraries
    .valid({ $ref: '#/components/schemas/WebhookIntegrationInput' })
    .map((body: any) => ({
      ...body,
      status: 'inactive',
      data: { ...body.data, webhook_url: 'https://example.com/forms-api-contract-test' },
    }));
  checks.push({
    name: 'explore: create an integration, follow its links, delete it, then each link answers 404',
    operationId: 'createFormIntegration',
    on: 'live',
    writes: true,
    run: (ctx) =>
      explore(
        ctx,
        'integration links',
        fc.tuple(generatedIntegrationBody, generatedIntegrationBody),
        async (scratch, [created, updated]) => {
          const form = scratch.target.ids.formId;
          const exchange = await scratch.send(() =>
            scratch
              .client()
              .POST(OPERATIONS.createFormIntegration.path, { params: { path: { form } }, body: created as never }),
          );
          const body = scratch.expectResponse(exchange, { operationId: 'createFormIntegration', status: 200 }) as
            { form_integration?: { id?: number } } | undefined;
          const id = body?.form_integration?.id;
          if (typeof id !== 'number') return;
          let deleted = false;
          scratch.onCleanup(`delete integration ${id}`, async () => {
            if (!deleted)
              await scratch.send(() =>
                scratch
                  .client()
                  .DELETE(OPERATIONS.deleteFormIntegration.path, { params: { path: { form, integrationid: id } } }),
              );
          });
          const path = (link: LinkSpec) => linkParameters(link, { form }, body);
          for (const link of links.filter((l) => l.operationId !== 'deleteFormIntegration')) {
            scratch.expectResponse(await follow(scratch, link.operationId, path(link), updated), {
              operationId: link.operationId,
              status: 200,
            });
          }
          // An update reads back as updated: the list shows the new state.
          const listed = await scratch.send(() =>
            scratch.client().GET(OPERATIONS.listFormIntegrations.path, { params: { path: { form } } }),
          );
          const list = scratch.expectResponse(listed, { operationId: 'listFormIntegrations', status: 200 }) as
            Array<{ id: number; status?: string }> | undefined;
          const mine = Array.isArray(list) ? list.find((i) => i.id === id) : undefined;
          if (Array.isArray(list) && !mine)
            scratch.observe(
              'created-integration-not-listed',
              'listFormIntegrations',
              `integration ${id} is not in its form's list`,
              { exchange: listed },
            );
          for (const link of links.filter((l) => l.operationId === 'deleteFormIntegration')) {
            scratch.expectResponse(await follow(scratch, link.operationId, path(link), updated), {
              operationId: link.operationId,
              status: 200,
            });
            deleted = true;
          }
          // Use after delete: every link of the deleted integration answers 404.
          for (const link of links) {
            const after = await follow(scratch, link.operationId, path(link), updated);
            if (after.status === 200)
              scratch.observe(
                'deleted-integration-still-answers',
                link.operationId,
                `integration ${id} answers 200 after it was deleted`,
                { expected: '404', received: '200', exchange: after },
              );
            else scratch.expectResponse(after, { operationId: link.operationId, status: 404 });
          }
        },
        10,
        () => 'create, update, list events, delete, then update/events/delete again',
      ),
  });

  // Wrong parent: a submission or an integration addressed through another form's path.
  checks.push({
    name: "explore: a submission or integration through another form's path answers 404",
    operationId: 'updateFormSubmission',
    on: 'live',
    writes: true,
    run: async (ctx) => {
      const other = ctx.target.ids.freeFormId ?? ctx.target.ids.captchaFormId;
      const submissionId = ctx.target.ids.submissionId;
      if (!other || !submissionId)
        return ctx.skip(
          'needs FORMS_API_SUBMISSION_ID and another form (FORMS_API_FREE_FORM_ID or FORMS_API_CAPTCHA_FORM_ID)',
        );
      const integrationId = ctx.target.ids.integrationId;
      // Its own answers: a body valid for its form, so only the parent in the path can be wrong (and nothing changes should the service accept it).
      const original = await findSubmission(ctx, submissionId);
      if (!original) return ctx.skip(`submission ${submissionId} was not found in form ${ctx.target.ids.formId}`);
      const ownAnswers = answersOf(original);
      await explore(
        ctx,
        'wrong parent',
        fc.constantFrom('submission', 'integration'),
        async (scratch, what) => {
          if (what === 'submission') {
            const exchange = await scratch.send(() =>
              scratch.client().PUT(OPERATIONS.updateFormSubmission.path, {
                params: { path: { id: other, submission_id: submissionId } },
                body: ownAnswers,
              }),
            );
            if (exchange.status === 200)
              scratch.observe(
                'reachable-through-another-form',
                'updateFormSubmission',
                `submission ${submissionId} of form ${ctx.target.ids.formId} answers 200 through form ${other}`,
                { expected: '404', received: '200', exchange },
              );
            else scratch.expectResponse(exchange, { operationId: 'updateFormSubmission', status: [404, 422] });
            return;
          }
          // The configured integration's events (a read), or else a temporary integration of this form,
          // addressed through the other form by each of its operations, then deleted through its own.
          const form = ctx.target.ids.formId;
          const integration = integrationId ?? (await createTemporaryIntegration(scratch, integrationBody())).id;
          const operations = integrationId
            ? (['listIntegrationEvents'] as const)
            : (['listIntegrationEvents', 'updateFormIntegration', 'deleteFormIntegration'] as const);
          for (const operationId of operations) {
            const exchange = await write(
              scratch,
              operationId,
              { form: other, integrationid: integration },
              integrationBody({ webhook_url: 'https://example.com/forms-api-contract-test/through-another-form' }),
            );
            if (exchange.status === 200)
              scratch.observe(
                'reachable-through-another-form',
                operationId,
                `integration ${integration} of form ${form} answers 200 through form ${other}`,
                { expected: '404', received: '200', exchange },
              );
            else scratch.expectResponse(exchange, { operationId, status: 404 });
          }
          if (integrationId) return;
          // Still there, and deleted through its own form.
          const deleted = await write(
            scratch,
            'deleteFormIntegration',
            { form, integrationid: integration },
            undefined,
          );
          scratch.expectResponse(deleted, { operationId: 'deleteFormIntegration', status: 200 });
        },
        4,
        (what) => what,
      );
    },
  });

  // Request bodies the schemas forbid, on every write operation: each must be refused with a 4xx, and change nothing.
  checks.push({
    name: 'explore: request bodies the schema forbids are refused',
    operationId: 'updateFormSubmission',
    on: 'live',
    writes: true,
    run: async (ctx) => {
      const { form, submissionId, original, fields, fixture } = await writeSetUp(ctx);
      const cases: BodyCase[] = [
        ...(original
          ? forbiddenBodies(spec, arbitraries, 'SubmissionUpdate', answersToSendBack(original, fields)).map((c) => ({
              ...c,
              operationId: 'updateFormSubmission' as const,
            }))
          : []),
        ...forbiddenBodies(spec, arbitraries, 'WebhookIntegrationInput', integrationBody()).flatMap((c) => [
          { ...c, operationId: 'createFormIntegration' as const },
          { ...c, operationId: 'updateFormIntegration' as const },
        ]),
      ];
      await explore(
        ctx,
        'forbidden request bodies',
        fc.constantFrom(...cases),
        async (scratch, c) => {
          const path =
            c.operationId === 'updateFormSubmission'
              ? { id: form, submission_id: submissionId }
              : c.operationId === 'updateFormIntegration'
                ? { form, integrationid: fixture.id }
                : { form };
          const exchange = await write(scratch, c.operationId, path, c.body);
          const ok = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
          // Whatever the service accepted is undone: the submission's answers put back, a created integration deleted.
          if (ok && c.operationId === 'updateFormSubmission' && original) restoreAfterwards(scratch, original, fields);
          if (ok && c.operationId === 'createFormIntegration') {
            const parsed = scratch.json(exchange);
            const id = parsed.ok ? (parsed.value as any)?.form_integration?.id : undefined;
            if (typeof id === 'number') deleteIntegrationAfterwards(scratch, id);
          }
          if (ok && c.operationId === 'updateFormIntegration')
            scratch.onCleanup(`restore integration ${fixture.id}`, async () => {
              await write(scratch, 'updateFormIntegration', path, integrationBody());
            });
          // A 500 is documented only for a body the request schema names as failing the service (x-server-error-when).
          if (exchange.status === 500 && spec.validator.failsTheService(c.operationId, c.body)) {
            scratch.expectResponse(exchange, { operationId: c.operationId, status: 500 });
            return;
          }
          const traits = ['body-invalid', ...(c.label.includes('number as text') ? ['body-holds-number-as-text'] : [])];
          if (ok)
            scratch.observe(
              'forbidden-body-accepted',
              c.operationId,
              `a body the schema forbids (${c.label}) was accepted with ${exchange.status}`,
              { expected: '422', received: String(exchange.status), exchange, traits },
            );
          else scratch.expectResponse(exchange, { operationId: c.operationId, status: 422, traits });
        },
        1,
        (c) => `${c.operationId} ${c.label}: ${truncate(JSON.stringify(c.body) ?? String(c.body), 200)}`,
        // A number sent as text on each operation, every run: the class a lenient reader lets through.
        (['updateFormSubmission', 'createFormIntegration'] as const).flatMap((id) =>
          cases.filter((c) => c.operationId === id && c.label.includes('number as text')).slice(0, 1),
        ),
      );
    },
  });

  // Writes without the right: no token, a wrong token, a token lacking the ability, another workspace's form.
  // Each must be refused, and change nothing: the state is read back after every one.
  checks.push({
    name: "explore: writes with no token, a wrong token, a token lacking the ability or on another workspace's form change nothing",
    operationId: 'updateFormSubmission',
    on: 'live',
    writes: true,
    run: async (ctx) => {
      const { form, submissionId, original, fields, fixture } = await writeSetUp(ctx);
      const changedField = original ? stringField(original, fields) : undefined;
      const listIds = async (scratch: CheckContext) => {
        const listed = await scratch.send(() =>
          scratch.client().GET(OPERATIONS.listFormIntegrations.path, { params: { path: { form } } }),
        );
        const list = scratch.expectResponse(listed, { operationId: 'listFormIntegrations', status: 200 });
        return Array.isArray(list) ? (list as Array<{ id: number; data?: { webhook_url?: string } }>) : undefined;
      };
      const before = new Set(((await listIds(ctx)) ?? []).map((i) => i.id));
      type Who = 'none' | 'wrong' | 'lacking' | 'foreign';
      const operations = (
        ['updateFormSubmission', 'createFormIntegration', 'updateFormIntegration', 'deleteFormIntegration'] as const
      ).filter((id) => id !== 'updateFormSubmission' || (original && changedField));
      const whos: Who[] = ['none', 'wrong', 'lacking', ...(ctx.target.ids.foreignFormId ? (['foreign'] as const) : [])];
      await explore(
        ctx,
        'writes without the right',
        fc.tuple(fc.constantFrom(...operations), fc.constantFrom(...whos)),
        async (scratch, [operationId, who]) => {
          const token =
            who === 'none'
              ? null
              : who === 'wrong'
                ? WRONG_TOKEN
                : who === 'lacking'
                  ? lackingToken(scratch, operationId)
                  : undefined;
          if (token === false) return;
          const parent = who === 'foreign' ? ctx.target.ids.foreignFormId! : form;
          const changedUrl = 'https://example.com/forms-api-contract-test/changed';
          let exchange: Exchange;
          if (operationId === 'updateFormSubmission') {
            const body = {
              ...answersToSendBack(original!, fields),
              [changedField!]: 'changed by an unauthorised write',
            };
            exchange = await write(scratch, operationId, { id: parent, submission_id: submissionId }, body, token);
          } else if (operationId === 'createFormIntegration') {
            exchange = await write(scratch, operationId, { form: parent }, integrationBody(), token);
          } else {
            const body = integrationBody({ webhook_url: changedUrl });
            exchange = await write(scratch, operationId, { form: parent, integrationid: fixture.id }, body, token);
          }
          const expected = who === 'foreign' ? [403, 404] : who === 'lacking' ? [403] : [401];
          const accepted = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
          if (accepted)
            scratch.observe(
              'write-without-the-right-accepted',
              operationId,
              `${operationId} ${describeWho(who)} answered ${exchange.status}`,
              { expected: expected.join(' or '), received: String(exchange.status), exchange },
            );
          else scratch.expectResponse(exchange, { operationId, status: expected });
          // Read back: nothing changed (and whatever did is put back).
          if (operationId === 'updateFormSubmission') {
            const now = await findSubmission(scratch, submissionId!);
            if (now && JSON.stringify(now.data[changedField!]) !== JSON.stringify(original!.data[changedField!])) {
              restoreAfterwards(scratch, original!, fields);
              scratch.observe(
                'refused-write-changed-state',
                operationId,
                `submission ${submissionId} changed after ${operationId} ${describeWho(who)}`,
                { exchange },
              );
            }
            return;
          }
          const list = await listIds(scratch);
          if (!list) return;
          const mine = list.find((i) => i.id === fixture.id);
          const created = list.filter((i) => !before.has(i.id));
          for (const extra of created) deleteIntegrationAfterwards(scratch, extra.id);
          if (who === 'foreign' && operationId === 'createFormIntegration' && accepted) {
            const parsed = scratch.json(exchange);
            const id = parsed.ok ? (parsed.value as any)?.form_integration?.id : undefined;
            if (typeof id === 'number') deleteIntegrationAfterwards(scratch, id, parent);
          }
          const changed =
            created.length > 0
              ? `integration ${created.map((i) => i.id).join(', ')} was created`
              : !mine
                ? `integration ${fixture.id} is gone`
                : mine.data?.webhook_url === changedUrl
                  ? `integration ${fixture.id} was updated`
                  : undefined;
          if (!changed) return;
          if (mine?.data?.webhook_url === changedUrl)
            scratch.onCleanup(`restore integration ${fixture.id}`, async () => {
              await write(scratch, 'updateFormIntegration', { form, integrationid: fixture.id }, integrationBody());
            });
          if (!mine)
            scratch.fail({
              kind: 'setup',
              message: `the check's integration ${fixture.id} was deleted by the case; later cases skip it`,
            });
          scratch.observe(
            'refused-write-changed-state',
            operationId,
            `${changed} after ${operationId} ${describeWho(who)}`,
            { exchange },
          );
        },
        3,
        ([operationId, who]) => `${operationId} ${describeWho(who)}`,
        // A covering set first, whatever the seed: each write and each kind of caller at least once.
        operations.map((operationId, i) => [operationId, whos[i % whos.length]!] as [(typeof operations)[number], Who]),
      );
    },
  });

  // An updated submission reads back as updated, through the spec's links of the update.
  checks.push({
    name: 'explore: an updated submission reads back as updated',
    operationId: 'updateFormSubmission',
    on: 'live',
    writes: true,
    run: async (ctx) => {
      const form = ctx.target.ids.formId;
      const submissionId = ctx.target.ids.submissionId;
      if (submissionId === undefined)
        return ctx.skip('set FORMS_API_SUBMISSION_ID (a submission the suite may update)');
      const original = await findSubmission(ctx, submissionId);
      if (!original) return ctx.skip(`submission ${submissionId} was not found in form ${form}`);
      const fields = await formFields(ctx);
      const field = stringField(original, fields);
      if (!field) return ctx.skip(`submission ${submissionId} has no text answer to change`);
      restoreAfterwards(ctx, original, fields);
      const readBack = linksOf(spec, 'updateFormSubmission');
      const omitsRequired = fields.some((f) => (f as { required?: boolean }).required && f.id !== field);
      // A text answer the service stores as sent (no surrounding spaces, which a framework may trim).
      const text = (arbitraries.valid({ type: 'string', minLength: 1, maxLength: 40 }) as fc.Arbitrary<string>).filter(
        (v) => v.trim() === v && v.length > 0,
      );
      await explore(
        ctx,
        'updated submission reads back',
        fc.record({ value: text, onlyTheChange: fc.boolean() }),
        async (scratch, { value, onlyTheChange }) => {
          const requestPath = { id: form, submission_id: submissionId };
          const body = onlyTheChange ? { [field]: value } : { ...answersToSendBack(original, fields), [field]: value };
          const traits = onlyTheChange && omitsRequired ? ['body-omits-required-field'] : [];
          const exchange = await write(scratch, 'updateFormSubmission', requestPath, body);
          const updated = scratch.expectResponse(exchange, {
            operationId: 'updateFormSubmission',
            status: 200,
            traits,
          });
          if (exchange.status !== 200) return;
          for (const link of readBack) {
            const path = linkParameters(link, requestPath, updated);
            let found: { data: Record<string, unknown> } | undefined;
            let listed: Exchange | undefined;
            for (let page = 1; page <= 20 && !found; page++) {
              listed = await scratch.send(() =>
                untyped(scratch).GET(OPERATIONS[link.operationId].path, { params: { path, query: { page } } }),
              );
              const list = scratch.expectResponse(listed, { operationId: link.operationId, status: 200 }) as
                | { data?: Array<{ id: number; data: Record<string, unknown> }>; meta?: { last_page?: number } }
                | undefined;
              found = list?.data?.find((s) => s.id === submissionId);
              if (!list?.meta?.last_page || page >= list.meta.last_page) break;
            }
            if (!found) {
              scratch.observe(
                'updated-submission-not-read-back',
                'updateFormSubmission',
                `submission ${submissionId} is not in its form's list after the update`,
                { exchange: listed },
              );
              continue;
            }
            if (JSON.stringify(found.data[field]) !== JSON.stringify(value))
              scratch.observe(
                'updated-submission-not-read-back',
                'updateFormSubmission',
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
                  'updateFormSubmission',
                  `answers not sent changed on update: ${changed.join(', ')}`,
                  { exchange: listed },
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

  // Another workspace's form: every operation on it is refused.
  checks.push({
    name: "explore: another workspace's form is refused by every operation",
    operationId: 'getForm',
    on: 'live',
    run: async (ctx) => {
      const foreign = ctx.target.ids.foreignFormId;
      if (!foreign) return ctx.skip('set FORMS_API_FOREIGN_FORM_ID (a form of a workspace the token cannot reach)');
      const reads = (['getForm', 'listFormSubmissions', 'listFormIntegrations'] as const).filter(
        (id) => OPERATIONS[id],
      );
      await explore(
        ctx,
        'foreign form',
        fc.constantFrom(...reads),
        async (scratch, operationId) => {
          const exchange = await get(scratch, operationId, undefined, foreign);
          if (exchange.status === 200)
            scratch.observe('foreign-form-readable', operationId, `form ${foreign} of another workspace answers 200`, {
              expected: '401, 403 or 404',
              received: '200',
              exchange,
            });
          else scratch.expectResponse(exchange, { operationId, status: [403, 404] });
        },
        1,
        (operationId) => `${operationId} on form ${foreign}`,
      );
    },
  });

  const byOperation = new Map<string, Check[]>();
  for (const check of checks)
    byOperation.set(check.operationId, [...(byOperation.get(check.operationId) ?? []), check]);
  return [...byOperation].map(([operationId, list]) => ({ operationId, checks: list }));
}

/** Sorts the scratch context's failures: unexpected, or known drift (with its entries). */
function judge(scratch: CheckContext, ledger: LedgerIndex): Judged {
  const unexpected: Failure[] = [];
  const known: Judged['known'] = [];
  for (const failure of scratch.failures) {
    // Rate limiting is reported as such by the runner, never explored around.
    const verdict = failure.kind === 'rate-limited' ? undefined : ledger.match(failure);
    if (verdict?.known) known.push({ failure, entryIds: verdict.entryIds });
    else unexpected.push(failure);
  }
  return { unexpected, known, requests: scratch.recorder.size };
}

interface Parameter {
  readonly name: string;
  readonly schema: Schema;
}

function queryParameters(spec: SpecArtifacts, operationId: OperationId, resolve: (s: Schema) => Schema): Parameter[] {
  const entry = spec.validator.operations.get(operationId) as { path: string; operation: { parameters?: unknown[] } };
  const item = spec.bundle.paths[entry.path] as { parameters?: unknown[] };
  return [...(item.parameters ?? []), ...(entry.operation.parameters ?? [])]
    .map((p) => resolve(p as Schema) as { in: string; name: string; schema: Schema })
    .filter((p) => p.in === 'query')
    .map((p) => ({ name: p.name, schema: p.schema }));
}

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

const clean = (q: Query): Query => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));

/** A list request with generated query values, as a client would serialise them (arrays repeated, objects as JSON). */
function sendList(
  ctx: CheckContext,
  operationId: 'listWorkspaceForms' | 'listFormSubmissions',
  query: Query,
): Promise<Exchange> {
  const path =
    operationId === 'listWorkspaceForms' ? { workspaceId: ctx.target.ids.workspaceId } : { id: ctx.target.ids.formId };
  const serialised = Object.fromEntries(
    Object.entries(query).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v,
    ]),
  );
  return ctx.send(() => untyped(ctx).GET(OPERATIONS[operationId].path, { params: { path, query: serialised } }));
}

const META = (body: any) => (body && typeof body === 'object' ? body.meta : undefined);

/**
 * A list answer to generated query values: what the schema allows is answered 200 (never refused);
 * what it forbids is read or refused with a documented 4xx (the published contract reads page sizes
 * and filters leniently), never a 5xx; and on every 200 the list's promises hold: a page holds at
 * most the size asked for and never more than 100, a status filter lists only that status, and
 * submissions come newest first.
 */
function judgeList(
  ctx: CheckContext,
  operationId: 'listWorkspaceForms' | 'listFormSubmissions',
  exchange: Exchange,
  query: Query,
  valid: boolean,
): void {
  const refusals = (operationById(operationId)?.statuses ?? []).filter(
    (s) => s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 429,
  );
  const body = ctx.expectResponse(exchange, { operationId, status: valid ? [200] : [200, ...refusals] }) as
    { data?: any[] } | undefined;
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
  const meta = META(body);
  if (meta && typeof meta.per_page === 'number' && meta.per_page > 100)
    ctx.observe('page-over-its-bound', operationId, `meta.per_page is ${meta.per_page}`, {
      expected: 'at most 100',
      received: String(meta.per_page),
      exchange,
    });
  if (operationId !== 'listFormSubmissions') return;
  if (query.status === 'completed' || query.status === 'partial') {
    const other = body.data.find((s) => s?.data?.status !== undefined && s.data.status !== query.status);
    if (other)
      ctx.observe(
        'filter-lets-other-status-through',
        operationId,
        `submission ${other.id} has status ${other.data.status} under status=${String(query.status)}`,
        { exchange },
      );
  }
  for (let i = 1; i < body.data.length; i++) {
    const before = body.data[i - 1]?.data?.created_at;
    const after = body.data[i]?.data?.created_at;
    if (typeof before === 'string' && typeof after === 'string' && before < after) {
      ctx.observe(
        'not-newest-first',
        operationId,
        `not newest first: ${body.data[i - 1].id} (${before}) before ${body.data[i].id} (${after})`,
        { expected: 'created_at descending', received: 'ascending step', exchange },
      );
      break;
    }
  }
}

/** A GET of a secured operation with ids of the target (or `form` for its form parameter). */
function get(
  ctx: CheckContext,
  operationId: OperationId,
  token: string | null | undefined,
  form?: number,
): Promise<Exchange> {
  const ids = ctx.target.ids;
  const formId = form ?? ids.formId;
  const path: Record<string, number> = {
    workspaceId: ids.workspaceId,
    form: formId,
    id: formId,
    integrationid: ids.integrationId ?? UNKNOWN_ID,
  };
  return ctx.send(() => untyped(ctx, token).GET(OPERATIONS[operationId].path, { params: { path } }));
}

interface LinkSpec {
  readonly name: string;
  readonly operationId: OperationId;
  readonly parameters: Record<string, string>;
}

/** The links of an operation's 200 response in the spec. */
export function linksOf(spec: SpecArtifacts, operationId: OperationId): LinkSpec[] {
  const entry = spec.validator.operations.get(operationId) as {
    operation: {
      responses?: Record<
        string,
        { links?: Record<string, { operationId: OperationId; parameters?: Record<string, string> }> }
      >;
    };
  };
  const links = entry.operation.responses?.['200']?.links ?? {};
  return Object.entries(links).map(([name, link]) => ({
    name,
    operationId: link.operationId,
    parameters: link.parameters ?? {},
  }));
}

/** Evaluates a link's runtime expressions: `$request.path.<name>` and `$response.body#/<pointer>`. */
export function linkParameters(
  link: LinkSpec,
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

/** Sends a link's operation with its parameters (a PUT with `body`). */
function follow(
  ctx: CheckContext,
  operationId: OperationId,
  path: Record<string, unknown>,
  body: unknown,
): Promise<Exchange> {
  const { method, path: template } = OPERATIONS[operationId];
  const client = untyped(ctx);
  const options = { params: { path }, ...(method === 'PUT' ? { body } : {}) };
  return ctx.send(() =>
    method === 'PUT'
      ? client.PUT(template, options)
      : method === 'DELETE'
        ? client.DELETE(template, options)
        : client.GET(template, options),
  );
}

const describeWho = (who: 'none' | 'wrong' | 'lacking' | 'foreign') =>
  who === 'none'
    ? 'with no token'
    : who === 'wrong'
      ? 'with a wrong token'
      : who === 'lacking'
        ? 'with a token lacking the ability'
        : "on another workspace's form";

/** A token of the target without the operation's ability, or false when it holds none (the case is then moot). */
function lackingToken(ctx: CheckContext, operationId: OperationId): string | false {
  try {
    return ctx.tokensWithoutAbilityFor(operationId)[0] ?? false;
  } catch (error) {
    if (error instanceof SkipCheck) return false;
    throw error;
  }
}

/** A body the schema forbids, what was done to it, and the write operation it is sent to. */
interface BodyCase {
  readonly operationId: 'updateFormSubmission' | 'createFormIntegration' | 'updateFormIntegration';
  readonly label: string;
  readonly body: unknown;
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
export function forbiddenBodies(
  spec: SpecArtifacts,
  arbitraries: ReturnType<typeof schemaArbitraries>,
  name: string,
  base: Record<string, any>,
): Array<{ label: string; body: unknown }> {
  const ref = { $ref: `#/components/schemas/${name}` };
  const schema = arbitraries.resolve(ref) as Record<string, any>;
  const replacements = (member: Schema): LabelledValue[] => [
    ...arbitraries.invalid(member),
    ...arbitraries.boundaries(member),
    ...arbitraries.hostile(member),
    ...FOREIGN_SHAPES,
  ];
  const out: Array<{ label: string; body: unknown }> = arbitraries
    .invalid(ref)
    .filter((v) => !v.label.startsWith('missing required') && !v.label.startsWith('unknown member'))
    .map((v) => ({ label: `body: ${v.label}`, body: v.value }));
  for (const required of (schema.required ?? []) as string[]) {
    const { [required]: _dropped, ...rest } = base;
    out.push({ label: `missing required ${required}`, body: rest });
  }
  const members: Array<[string, Schema]> = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  // A map's values (answers by field id): each answer the base holds stands for them all, so take the first.
  const firstKey = Object.keys(base).find((k) => !(k in (schema.properties ?? {})));
  if (firstKey && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    members.push([firstKey, schema.additionalProperties]);
  for (const [member, memberSchema] of members) {
    for (const v of replacements(memberSchema))
      out.push({ label: `${member}: ${v.label}`, body: { ...base, [member]: v.value } });
    const inner = arbitraries.resolve(memberSchema) as Record<string, any>;
    const innerBase = base[member];
    if (typeof inner !== 'object' || !inner.properties || !innerBase || typeof innerBase !== 'object') continue;
    for (const [key, keySchema] of Object.entries(inner.properties as Record<string, Schema>))
      for (const v of replacements(keySchema))
        out.push({
          label: `${member}.${key}: ${v.label}`,
          body: { ...base, [member]: { ...innerBase, [key]: v.value } },
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

const truncate = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/** A write with the target's main token (or `token`): PUT, POST or DELETE of an operation, with path values chosen at run time. */
/**
 * What the write checks aim at: the target's form; its submission under test, when one is set and
 * found, with the form's fields (to send its answers back); and an integration created (inactive)
 * for the check and deleted after it, for the updates and deletes to address.
 */
async function writeSetUp(ctx: CheckContext) {
  const form = ctx.target.ids.formId;
  const submissionId = ctx.target.ids.submissionId;
  const original = submissionId === undefined ? undefined : await findSubmission(ctx, submissionId);
  const fields = original ? await formFields(ctx) : [];
  const fixture = await createTemporaryIntegration(ctx, integrationBody());
  return { form, submissionId, original, fields, fixture };
}

function write(
  ctx: CheckContext,
  operationId: OperationId,
  path: Record<string, unknown>,
  body: unknown,
  token?: string | null,
): Promise<Exchange> {
  const { method, path: template } = OPERATIONS[operationId];
  const client = untyped(ctx, token);
  const options = { params: { path }, ...(method === 'DELETE' ? {} : { body }) };
  return ctx.send(() =>
    method === 'PUT'
      ? client.PUT(template, options)
      : method === 'POST'
        ? client.POST(template, options)
        : client.DELETE(template, options),
  );
}

type UntypedCall = (
  path: string,
  options: { params: { path: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown },
) => Promise<unknown>;

/** The target's client without its path types: generated requests choose paths and values at run time. */
function untyped(
  ctx: CheckContext,
  token?: string | null,
): { GET: UntypedCall; PUT: UntypedCall; POST: UntypedCall; DELETE: UntypedCall } {
  return ctx.client(token) as unknown as { GET: UntypedCall; PUT: UntypedCall; POST: UntypedCall; DELETE: UntypedCall };
}
