// listFormSubmissions: every documented status on the mock; on live targets 401/403/404, the
// invalid inputs (422), the partial filter on a free plan (402), pagination with a filter, and the
// ledger's named checks pagination-links-keep-filters and search-matches-values-only.
import { OPERATIONS, type ListSubmissionsQuery, type components } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import { envVariableOf } from '../targets/settings.js';
import { deliberatelyInvalid, documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, queryOfLink, UNKNOWN_ID, type Send } from './common.js';
import type { OperationSuite } from './types.js';

type Submission = components['schemas']['Submission'];
type SubmissionPage = components['schemas']['SubmissionPage'];

const operationId = 'listFormSubmissions';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).GET(OPERATIONS[operationId].path, {
      params: { path: { id: ctx.target.ids.formId, ...o.path }, ...(o.query ? { query: o.query } : {}) },
    }),
  );

/** One page, validated; the check stops (as a failure) when the page itself is wrong. */
async function page(ctx: CheckContext, query: ListSubmissionsQuery): Promise<{ body: SubmissionPage; exchange: Exchange } | undefined> {
  const exchange = await send(ctx, { query });
  const before = ctx.failures.length;
  const body = ctx.expectResponse(exchange, { operationId, status: 200 }) as SubmissionPage | undefined;
  return body && ctx.failures.length === before ? { body, exchange } : undefined;
}

const PER_PAGE = 2;
const FILTER = { status: 'completed' } as const;
const MAX_PAGES = 50;

/** The textual answer values of a submission (what search is documented to match). */
function answerText(submission: Submission): string {
  const values = Object.entries(submission.data)
    .filter(([key]) => !['status', 'created_at', 'id'].includes(key))
    .map(([, value]) => value);
  const flatten = (v: unknown): string[] => (v === null || v === undefined ? [] : Array.isArray(v) ? v.flatMap(flatten) : typeof v === 'object' ? Object.values(v as object).flatMap(flatten) : [String(v)]);
  return values.flatMap(flatten).join('\n').toLowerCase();
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, unknown: { request: { path: { id: UNKNOWN_ID } } } }),
    {
      name: 'per_page above 100: 422',
      operationId,
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { query: { per_page: 101 } }), { operationId, status: 422, when: 'per_page out of bounds' });
      },
    },
    {
      name: 'unknown status filter: 422',
      operationId,
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { query: { status: deliberatelyInvalid('archived') } }), { operationId, status: 422, when: 'status outside its enum' });
      },
    },
    {
      name: 'manage-integrations without forms-read: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const token = ctx.token('integrationsOnly');
        ctx.expectResponse(await send(ctx, { token }), { operationId, status: 403, when: 'token has manage-integrations but not forms-read' });
      },
    },
    {
      name: 'partial filter without Pro: 402',
      operationId,
      on: 'live',
      async run(ctx) {
        const freeFormId = ctx.target.ids.freeFormId;
        if (freeFormId === undefined) return ctx.skip(`no form of a free workspace (set ${envVariableOf('freeFormId')})`);
        ctx.expectResponse(await send(ctx, { path: { id: freeFormId }, query: { status: 'partial' } }), { operationId, status: 402, when: 'status=partial on a workspace without Pro' });
      },
    },
    {
      name: 'pagination: every filtered submission once, newest first',
      operationId,
      on: 'live',
      async run(ctx) {
        const seen = new Map<number, number>();
        const order: Submission[] = [];
        let lastPage = 1;
        for (let n = 1; n <= Math.min(lastPage, MAX_PAGES); n++) {
          const result = await page(ctx, { ...FILTER, per_page: PER_PAGE, page: n });
          if (!result) return;
          lastPage = result.body.meta.last_page;
          for (const s of result.body.data) {
            seen.set(s.id, (seen.get(s.id) ?? 0) + 1);
            order.push(s);
            if (s.data.status !== FILTER.status) ctx.failCheck('pagination-walk', operationId, `submission ${s.id} has status ${s.data.status} under status=${FILTER.status}`, { exchange: result.exchange });
          }
          if (result.body.meta.total !== undefined && n === 1 && result.body.meta.total === 0) return ctx.skip('the form has no completed submission to page through');
        }
        const duplicates = [...seen].filter(([, count]) => count > 1).map(([id]) => id);
        if (duplicates.length > 0) ctx.failCheck('pagination-walk', operationId, `submissions listed more than once: ${duplicates.join(', ')}`, { expected: 'each submission once', received: `${duplicates.length} duplicate(s)`, exchange: ctx.recorder.last()! });
        for (let i = 1; i < order.length; i++) {
          if (order[i - 1]!.data.created_at < order[i]!.data.created_at) {
            ctx.failCheck('pagination-walk', operationId, `not newest first: ${order[i - 1]!.id} (${order[i - 1]!.data.created_at}) before ${order[i]!.id} (${order[i]!.data.created_at})`, { expected: 'created_at descending', received: 'ascending step', exchange: ctx.recorder.last()! });
            break;
          }
        }
      },
    },
    {
      name: 'pagination-links-keep-filters',
      operationId,
      on: 'live',
      async run(ctx) {
        const first = await page(ctx, { ...FILTER, per_page: PER_PAGE, page: 1 });
        if (!first) return;
        const next = first.body.links.next;
        if (!next) return ctx.skip(`fewer than ${PER_PAGE + 1} completed submissions: no next page to follow`);
        const url = new URL(next);
        const followed = await page(ctx, queryOfLink(url));
        const explicit = await page(ctx, { ...FILTER, per_page: PER_PAGE, page: 2 });
        if (!followed || !explicit) return;
        const ids = (p: SubmissionPage) => p.data.map((s) => s.id).join(',');
        const missing = ['status', 'per_page'].filter((key) => !url.searchParams.has(key));
        if (missing.length > 0 || ids(followed.body) !== ids(explicit.body)) {
          ctx.failCheck('pagination-links-keep-filters', operationId, `links.next drops ${missing.join(', ') || 'nothing'} and leads to a different page`, {
            expected: `page 2 of status=${FILTER.status}&per_page=${PER_PAGE}: [${ids(explicit.body)}]`,
            received: `${next}: [${ids(followed.body)}]`,
            exchange: followed.exchange,
          });
        }
      },
    },
    {
      name: 'search-matches-values-only',
      operationId,
      on: 'live',
      async run(ctx) {
        const all = await page(ctx, { per_page: 100, page: 1 });
        if (!all) return;
        const sample = all.body.data.find((s) => /[a-z]{3,}/i.test(answerText(s)));
        if (!sample) return ctx.skip('no submission with a text answer to search for');
        // A value's substring in another case must find the submission.
        const word = /[a-z]{3,}/i.exec(answerText(sample))![0];
        const term = word.slice(0, 3).toUpperCase();
        const found = await page(ctx, { search: term, per_page: 100 });
        if (found && !found.body.data.some((s) => s.id === sample.id)) {
          ctx.failCheck('search-matches-values-only', operationId, `searching "${term}" (a value's text, other case) does not find submission ${sample.id}`, { expected: `submission ${sample.id} listed`, received: 'not listed', exchange: found.exchange });
        }
        // Terms that appear in no value: a field id (a key) and LIKE wildcards must match nothing.
        const fieldId = Object.keys(sample.data).find((k) => !['status', 'created_at', 'id'].includes(k));
        for (const probe of [fieldId, '%', '_'].filter((p): p is string => !!p)) {
          const result = await page(ctx, { search: probe, per_page: 100 });
          const wrong = result?.body.data.filter((s) => !answerText(s).includes(probe.toLowerCase())) ?? [];
          if (result && wrong.length > 0) {
            ctx.failCheck('search-matches-values-only', operationId, `searching "${probe}" lists ${wrong.length} submission(s) with no value containing it`, { expected: 'only submissions whose answer values contain the term', received: `ids ${wrong.slice(0, 5).map((s) => s.id).join(', ')}`, exchange: result.exchange });
          }
        }
      },
    },
  ],
};
