// Lists one page at a time as the service's framework does: query values read the way PHP and
// Laravel read them (never refused), a length-aware page of rows, its envelope, and page links.
import type { Context } from 'hono';

/**
 * A query parameter as the service sees it: undefined when absent, null when present but empty
 * (the service trims strings and turns "" into null), else the trimmed value (the last one when
 * the name is repeated, as PHP keeps).
 */
export type QueryValue = string | null | undefined;

export function queryValue(c: Context, name: string): QueryValue {
  const values = c.req.queries(name);
  if (!values || values.length === 0) return undefined;
  const trimmed = values[values.length - 1]!.trim();
  return trimmed === '' ? null : trimmed;
}

// PHP's integer cast reads a leading number (sign, digits, fraction, exponent) and ignores the rest.
const LEADING_NUMBER = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;

/** PHP's `(int)` of a query value: `"12abc"` is 12, `"10.7"` 10, `"-5"` -5; text, empty or null is 0. */
export function phpInt(value: QueryValue): number {
  const match = LEADING_NUMBER.exec(value ?? '');
  if (!match) return 0;
  const n = Math.trunc(Number(match[1]));
  return Number.isFinite(n) ? Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n)) : 0;
}

/** The page asked for: a whole number from 1 (no leading zeros), else 1, never refused (Laravel's paginator). */
export function pageOf(value: QueryValue): number {
  if (value == null || !/^[+]?(0|[1-9]\d*)$/.test(value)) return 1;
  const page = Number(value);
  return page >= 1 && page <= Number.MAX_SAFE_INTEGER ? page : 1;
}

/** One page of a list, with Laravel's length-aware arithmetic (a negative size means every row). */
export interface LengthAwarePage<T> {
  items: T[];
  total: number;
  perPage: number;
  currentPage: number;
  lastPage: number;
  from: number | null;
  to: number | null;
}

export function lengthAwarePage<T>(rows: readonly T[], page: number, perPage: number): LengthAwarePage<T> {
  // SQL's OFFSET is floored at 0 and a negative LIMIT is dropped, so a negative size lists every row.
  const offset = Math.max(0, (page - 1) * perPage);
  const items = perPage < 0 ? rows.slice(offset) : rows.slice(offset, offset + perPage);
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    items,
    total: rows.length,
    perPage,
    currentPage: page,
    lastPage: Math.max(Math.ceil(rows.length / perPage) || 1, 1),
    from,
    to: from === null ? null : from + items.length - 1,
  };
}

/** The page numbers a Laravel paginator shows (three on each side of the current one), null for "...". */
export function shownPages(page: number, lastPage: number): Array<number | null> {
  const pages = Array.from({ length: lastPage }, (_, i) => i + 1);
  if (lastPage < 14) return pages;
  if (page <= 7) return [...pages.slice(0, 10), null, lastPage - 1, lastPage];
  if (page > lastPage - 7) return [1, 2, null, ...pages.slice(lastPage - 10)];
  return [1, 2, null, ...pages.slice(page - 4, page + 3), null, lastPage - 1, lastPage];
}

/** The `{data, links, meta}` envelope of a Laravel paginated resource collection; `link(n)` is page n's URL. */
export function paginatedEnvelope(
  page: LengthAwarePage<unknown>,
  path: string,
  link: (n: number) => string,
): Record<string, unknown> {
  const { currentPage, lastPage } = page;
  const prev = currentPage > 1 ? link(currentPage - 1) : null;
  const next = currentPage < lastPage ? link(currentPage + 1) : null;
  return {
    data: page.items,
    links: { first: link(1), last: link(lastPage), prev, next },
    meta: {
      current_page: currentPage,
      from: page.from,
      last_page: lastPage,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...shownPages(currentPage, lastPage).map((p) =>
          p === null
            ? { url: null, label: '...', active: false }
            : { url: link(p), label: String(p), active: p === currentPage },
        ),
        { url: next, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: page.perPage,
      to: page.to,
      total: page.total,
    },
  };
}

/** PHP's rawurlencode (RFC 3986): everything but letters, digits and `-_.~` is percent-encoded. */
export function rawUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A page URL: the path, the given query pairs, then `page=n` last. */
export function pageUrl(path: string, query: ReadonlyArray<readonly [string, string]>, n: number): string {
  return `${path}?${[...query, ['page', String(n)] as const].map(([k, v]) => `${rawUrlEncode(k)}=${rawUrlEncode(v)}`).join('&')}`;
}

/** A list request as its page links need it: where it was asked, and its query. */
export interface ListRequest {
  /** The list's URL without a query, under the sandbox's base URL. */
  path: string;
  /** The query as the service reads it: trimmed values, empty ones dropped, a repeated name once (its last value). */
  query: ReadonlyArray<readonly [string, string]>;
}

export function listRequest(c: Context, path: string): ListRequest {
  // A Map keeps a name where it first appeared and takes its last value, as PHP's query parsing does.
  const query = new Map<string, string | null>();
  for (const [name, value] of new URL(c.req.url).searchParams)
    query.set(name, value.trim() === '' ? null : value.trim());
  return { path, query: [...query].filter((pair): pair is [string, string] => pair[1] !== null) };
}

/** How the two lists read their query and lay out a page. */
export interface ListingRules {
  /** The submission list's page size, from its `per_page` (a negative size lists every row on one page). */
  submissionsPerPage(value: QueryValue): number;
  /** The body of one page of a workspace's forms (items already presented). */
  workspaceFormsBody(page: LengthAwarePage<unknown>, request: ListRequest): unknown;
  /** The body of one page of a form's submissions (items already presented). */
  submissionsBody(page: LengthAwarePage<unknown>, request: ListRequest): unknown;
}

/** The filters a submission list's links carry, so that "next" is the next page of the same list. */
const SUBMISSION_FILTERS = new Set(['search', 'status', 'per_page']);

export const CONTRACT_LISTING: ListingRules = {
  // Default and maximum 100 (the contract); 0, text and negative sizes are not sizes: 15, as observed for 0 and text.
  submissionsPerPage(value) {
    if (value === undefined) return 100;
    const n = phpInt(value);
    return n >= 1 ? Math.min(n, 100) : 15;
  },
  // The contract's envelope: data and meta with current_page, per_page and total.
  workspaceFormsBody: (page) => ({
    data: page.items,
    meta: { current_page: page.currentPage, per_page: page.perPage, total: page.total },
  }),
  submissionsBody(page, request) {
    const filters = request.query.filter(([name]) => SUBMISSION_FILTERS.has(name));
    return paginatedEnvelope(page, request.path, (n) => pageUrl(request.path, filters, n));
  },
};
