// listFormSubmissions beyond the derived checks: page sizes and filters outside the spec (read,
// never refused), the status filters splitting the list, the partial filter on a free plan (403), pagination with a filter and its links,
// search, and the shape of file answers.
import type { ListSubmissionsQuery, components } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import { envVariableOf } from '../targets/settings.js';
import { deliberatelyInvalid, handSuite, operationSender, queryOfLink } from './common.js';
import { formFields, jsonType, META_KEYS } from './helpers.js';

type Submission = components['schemas']['Submission'];
type SubmissionPage = components['schemas']['SubmissionPage'];

const operationId = 'listFormSubmissions';

const send = operationSender(operationId);

/** One page, validated; the check stops (as a failure) when the page itself is wrong. */
async function page(
  ctx: CheckContext,
  query: ListSubmissionsQuery,
): Promise<{ body: SubmissionPage; exchange: Exchange } | undefined> {
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
    .filter(([key]) => !META_KEYS.has(key))
    .map(([, value]) => value);
  const flatten = (v: unknown): string[] =>
    v === null || v === undefined
      ? []
      : Array.isArray(v)
        ? v.flatMap(flatten)
        : typeof v === 'object'
          ? Object.values(v as object).flatMap(flatten)
          : [String(v)];
  return values.flatMap(flatten).join('\n').toLowerCase();
}

/** Each answer's JSON text, as the service's search on PostgreSQL reads it (keys inside structured answers included). */
function answerJson(submission: Submission): string {
  return Object.entries(submission.data)
    .filter(([key]) => !META_KEYS.has(key))
    .map(([, value]) => JSON.stringify(value) ?? '')
    .join('\n')
    .toLowerCase();
}

/** The string values of a submission's answers, at any depth (what every search of the service matches). */
function stringValues(submission: Submission): string[] {
  const strings = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
  return Object.entries(submission.data)
    .filter(([key]) => !META_KEYS.has(key))
    .flatMap(([, value]) => strings(value));
}

/**
 * Search terms drawn from the data: words of the rows' string answers (ASCII letters, at least 4,
 * so no case folding differs between databases) that some rows hold and others do not, so a
 * search for one must filter. At most `limit`, from different rows where it can.
 */
export function termsDrawnFrom(rows: readonly Submission[], limit: number): string[] {
  const texts = rows.map(answerText);
  const terms: string[] = [];
  for (const row of rows) {
    const word = stringValues(row)
      .flatMap((value) => value.toLowerCase().match(/[a-z]{4,}/g) ?? [])
      .find((w) => !terms.includes(w) && texts.some((text) => !text.includes(w)));
    if (word !== undefined) terms.push(word);
    if (terms.length === limit) break;
  }
  return terms;
}

/** A search that listed submissions none of whose answer values holds its term. */
function observeMatchesNoValue(
  ctx: CheckContext,
  searched: string,
  listed: readonly Submission[],
  exchange: Exchange,
  traits: readonly string[],
): void {
  ctx.observe(
    'search-matches-no-value',
    operationId,
    `searching ${searched} lists ${listed.length} submission(s) with no value containing it`,
    {
      expected: 'only submissions whose answer values contain the term',
      received: `ids ${listed
        .slice(0, 5)
        .map((s) => s.id)
        .join(', ')}`,
      exchange,
      traits,
    },
  );
}

export const suite = handSuite({
  operationId,
  checks: [
    {
      name: 'per_page above 100: a page of at most 100',
      operationId,
      on: 'live',
      async run(ctx) {
        // The contract's maximum; the schema's maxItems and meta.per_page bounds judge the page.
        ctx.expectResponse(await send(ctx, { query: { per_page: 101 } }), { operationId, status: 200 });
      },
    },
    {
      name: 'per_page below 1: never more than 100 per page',
      operationId,
      on: 'live',
      async run(ctx) {
        // Not a page size the spec offers, so the tenant may read it as it likes, but never past the maximum.
        ctx.expectResponse(await send(ctx, { query: { per_page: deliberatelyInvalid(-1) } }), {
          operationId,
          status: 200,
        });
      },
    },
    {
      name: 'unknown status filter: ignored',
      operationId,
      on: 'live',
      async run(ctx) {
        const all = await page(ctx, { per_page: 1 });
        const unknown = await page(ctx, { status: deliberatelyInvalid('archived'), per_page: 1 });
        if (all && unknown && unknown.body.meta.total !== all.body.meta.total) {
          ctx.observe('unknown-status-filters', operationId, 'status=archived does not list every submission', {
            expected: `total ${all.body.meta.total} (as without status)`,
            received: `total ${unknown.body.meta.total}`,
            exchange: unknown.exchange,
          });
        }
      },
    },
    {
      // A metamorphic relation over counts (so ties in `created_at` cannot upset it): the filters
      // split the list, and `all` is the list. A list changing meanwhile is counted again, once.
      name: 'status filters partition the list: completed + partial = all = no filter',
      operationId,
      on: 'live',
      async run(ctx) {
        const total = async (status?: 'completed' | 'partial' | 'all') =>
          (await page(ctx, { per_page: 1, ...(status ? { status } : {}) }))?.body.meta.total;
        for (let attempt = 1; attempt <= 2; attempt++) {
          const before = await total();
          const [completed, partial, all] = [await total('completed'), await total('partial'), await total('all')];
          const after = await total();
          if ([before, completed, partial, all, after].some((t) => t === undefined)) return;
          if (before !== after) continue;
          if (completed! + partial! === before && all === before) return;
          return ctx.observe(
            'status-filters-do-not-partition',
            operationId,
            `without a filter ${before} submissions, with status=all ${all}, completed ${completed} + partial ${partial}`,
            {
              expected: `completed + partial = all = ${before}`,
              received: `${completed} + ${partial}, all ${all}`,
              exchange: ctx.recorder.last()!,
            },
          );
        }
        ctx.skip('the list changed while it was counted, twice: submissions are arriving');
      },
    },
    {
      name: 'partial filter without Pro: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const freeFormId = ctx.target.ids.freeFormId;
        if (freeFormId === undefined)
          return ctx.skip(`no form of a free workspace (set ${envVariableOf('freeFormId')})`);
        ctx.expectResponse(await send(ctx, { path: { id: freeFormId }, query: { status: 'partial' } }), {
          operationId,
          status: 403,
          traits: ['workspace-below-pro'],
        });
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
            if (s.data.status !== FILTER.status)
              ctx.observe(
                'filter-lets-other-status-through',
                operationId,
                `submission ${s.id} has status ${s.data.status} under status=${FILTER.status}`,
                { exchange: result.exchange },
              );
          }
          if (result.body.meta.total !== undefined && n === 1 && result.body.meta.total === 0)
            return ctx.skip('the form has no completed submission to page through');
        }
        const duplicates = [...seen].filter(([, count]) => count > 1).map(([id]) => id);
        if (duplicates.length > 0)
          ctx.observe(
            'submission-listed-twice',
            operationId,
            `submissions listed more than once: ${duplicates.join(', ')}`,
            {
              expected: 'each submission once',
              received: `${duplicates.length} duplicate(s)`,
              exchange: ctx.recorder.last()!,
            },
          );
        for (let i = 1; i < order.length; i++) {
          if (order[i - 1]!.data.created_at < order[i]!.data.created_at) {
            ctx.observe(
              'not-newest-first',
              operationId,
              `not newest first: ${order[i - 1]!.id} (${order[i - 1]!.data.created_at}) before ${order[i]!.id} (${order[i]!.data.created_at})`,
              { expected: 'created_at descending', received: 'ascending step', exchange: ctx.recorder.last()! },
            );
            break;
          }
        }
      },
    },
    {
      name: 'pagination links keep the filters',
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
          ctx.observe(
            'links-drop-filters',
            operationId,
            `links.next drops ${missing.join(', ') || 'nothing'} and leads to a different page`,
            {
              expected: `page 2 of status=${FILTER.status}&per_page=${PER_PAGE}: [${ids(explicit.body)}]`,
              received: `${next}: [${ids(followed.body)}]`,
              exchange: followed.exchange,
              // The parameters the link lost: a link that keeps them and still leads elsewhere is another defect.
              symptom: { at: missing },
            },
          );
        }
      },
    },
    {
      name: 'search matches answer values only',
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
          ctx.observe(
            'search-misses-a-value',
            operationId,
            `searching "${term}" (a value's text, other case) does not find submission ${sample.id}`,
            { expected: `submission ${sample.id} listed`, received: 'not listed', exchange: found.exchange },
          );
        }
        // Terms that appear in no value must match nothing: a field id (a key), the LIKE
        // wildcards, and "0" (a term like any other).
        const fieldId = Object.keys(sample.data).find((k) => !META_KEYS.has(k));
        const probes: Array<{ term: string; traits: string[] }> = [
          ...(fieldId ? [{ term: fieldId, traits: ['term-is-a-field-id'] }] : []),
          { term: '%', traits: [] },
          { term: '_', traits: [] },
          { term: '0', traits: [] },
        ];
        for (const { term: probe, traits } of probes) {
          const result = await page(ctx, { search: probe, per_page: 100 });
          const wrong = result?.body.data.filter((s) => !answerText(s).includes(probe.toLowerCase())) ?? [];
          if (result && wrong.length > 0) observeMatchesNoValue(ctx, `"${probe}"`, wrong, result.exchange, traits);
        }
      },
    },
    {
      name: 'search: a term drawn from the answers lists exactly the submissions holding it',
      operationId,
      on: 'live',
      async run(ctx) {
        const all = await page(ctx, { per_page: 100, page: 1 });
        if (!all) return;
        const terms = termsDrawnFrom(all.body.data, 2);
        if (terms.length === 0) return ctx.skip('no word that some listed submissions hold and others do not');
        for (const term of terms) {
          const found = await page(ctx, { search: term, per_page: 100 });
          if (!found) continue;
          const hits = found.body.data;
          const wrong = hits.filter((s) => !answerText(s).includes(term));
          // In a key inside a structured answer (or its JSON punctuation): the service's known reading.
          const inJsonOnly = wrong.filter((s) => answerJson(s).includes(term));
          for (const [listed, traits] of [
            [wrong.filter((s) => !inJsonOnly.includes(s)), []],
            [inJsonOnly, ['term-in-answer-json-only']],
          ] as const) {
            if (listed.length > 0)
              observeMatchesNoValue(ctx, `"${term}" (a word of the listed answers)`, listed, found.exchange, traits);
          }
          // When every hit fits in the page, every listed submission holding the term is among them.
          if (found.body.meta.total > hits.length) continue;
          const ids = new Set(hits.map((s) => s.id));
          const missed = all.body.data.filter((s) => answerText(s).includes(term) && !ids.has(s.id));
          if (missed.length > 0)
            ctx.observe(
              'search-misses-a-value',
              operationId,
              `searching "${term}" does not find ${missed.length} submission(s) whose values hold it`,
              {
                expected: `submissions ${missed
                  .slice(0, 5)
                  .map((s) => s.id)
                  .join(', ')} listed`,
                received: 'not listed',
                exchange: found.exchange,
              },
            );
        }
      },
    },
    {
      name: 'file answers are lists of file entries',
      operationId,
      on: 'live',
      async run(ctx) {
        const fileFields = new Set(
          (await formFields(ctx)).filter((f) => f.type === 'files' || f.type === 'signature').map((f) => f.id),
        );
        if (fileFields.size === 0) return ctx.skip('the form has no files or signature field');
        let seen = 0;
        for (let n = 1, last = 1; n <= Math.min(last, MAX_PAGES); n++) {
          const result = await page(ctx, { per_page: 100, page: n });
          if (!result) return;
          last = result.body.meta.last_page;
          for (const s of result.body.data) {
            for (const id of fileFields) {
              const value: unknown = s.data[id];
              if (value === undefined || value === null || value === '') continue;
              seen++;
              if (!Array.isArray(value)) {
                ctx.observe(
                  'file-answer-not-a-list',
                  operationId,
                  `submission ${s.id}: the answer to file field ${id} is not a list`,
                  {
                    expected: 'a list of {file_url, file_name}',
                    received: ctx.excerpt(JSON.stringify(value), 160),
                    exchange: result.exchange,
                    symptom: { at: [id], received: [jsonType(value)] },
                  },
                );
                return;
              }
            }
          }
        }
        if (seen === 0) ctx.skip('no submission answers a file field');
      },
    },
  ],
});
