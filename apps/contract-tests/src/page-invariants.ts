// What a page of a paginated list says about itself (its meta and links) must agree with the rows
// it holds and the page asked for. Which operations are paginated is read from the spec.
import { responseSchemas, topLevelProperties, type SpecOperation } from './operations.js';

const paginated = new WeakMap<object, ReadonlySet<string>>();

/** The operations whose 200 is a page (`data` and `meta`) or whose query takes `page` or `per_page`. */
export function paginatedOperations(
  bundle: Record<string, unknown>,
  operations: ReadonlyMap<string, SpecOperation>,
): ReadonlySet<string> {
  let ids = paginated.get(bundle);
  if (!ids) {
    ids = new Set(
      [...operations.values()]
        .filter((op) => {
          const top = topLevelProperties(bundle, responseSchemas(bundle, op).get(200));
          const paged = top.includes('data') && top.includes('meta');
          return paged || op.parameters.some((p) => p.in === 'query' && (p.name === 'page' || p.name === 'per_page'));
        })
        .map((op) => op.operationId),
    );
    paginated.set(bundle, ids);
  }
  return ids;
}

/**
 * The page a request asked for, as the service reads `page` (its last value, trimmed): a whole
 * number from 1; undefined when none was asked for or the value is not one (then page 1 is read).
 */
export function askedPage(url: string): number | undefined {
  const value = new URL(url).searchParams.getAll('page').at(-1)?.trim();
  if (value === undefined || !/^\+?[1-9]\d*$/.test(value)) return undefined;
  const page = Number(value);
  return Number.isSafeInteger(page) ? page : undefined;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** The `page` of a link URL, or null for no link. */
const pageOfLink = (link: unknown): number | null | undefined => {
  if (link === null) return null;
  if (typeof link !== 'string') return undefined;
  try {
    const page = new URL(link).searchParams.get('page');
    return page === null ? undefined : Number(page);
  } catch {
    return undefined;
  }
};

/**
 * Every statement of a page's `meta` and `links` that its rows or the page asked for contradict,
 * as sentences (none: the page adds up). Keys the page does not carry are not judged; nor is a page
 * whose size is not a page size (below 1: a drift the schema reports).
 */
export function pageContradictions(body: unknown, asked?: number): string[] {
  if (body === null || typeof body !== 'object') return [];
  const { data, meta, links } = body as { data?: unknown; meta?: Record<string, unknown>; links?: unknown };
  if (!Array.isArray(data) || meta === null || typeof meta !== 'object') return [];
  const { current_page: page, per_page: size, total } = meta;
  if (!isCount(page) || page < 1 || !isCount(size) || size < 1 || !isCount(total)) return [];
  const rows = data.length;
  const found: string[] = [];
  if (rows > size) found.push(`${rows} rows on a page of per_page ${size}`);
  // A full page before the last, the rest on the last, none beyond it.
  const due = Math.min(size, Math.max(0, total - (page - 1) * size));
  if (rows !== due)
    found.push(`page ${page} of per_page ${size} with total ${total} holds ${due} rows, but it holds ${rows}`);
  const first = (page - 1) * size + 1;
  if ('from' in meta) {
    const want = rows > 0 ? first : null;
    if (meta.from !== want) found.push(`from is ${String(meta.from)}, not ${String(want)}`);
  }
  if ('to' in meta) {
    const want = rows > 0 ? first + rows - 1 : null;
    if (meta.to !== want) found.push(`to is ${String(meta.to)}, not ${String(want)}`);
    if (typeof meta.to === 'number' && meta.to > total) found.push(`to ${meta.to} is past total ${total}`);
  }
  const lastPage = Math.max(1, Math.ceil(total / size));
  if ('last_page' in meta && meta.last_page !== lastPage)
    found.push(`last_page is ${String(meta.last_page)}, not max(1, ceil(${total} / ${size})) = ${lastPage}`);
  if (asked !== undefined && page !== asked) found.push(`current_page is ${page}, but page ${asked} was asked for`);
  if (links !== null && typeof links === 'object') {
    const l = links as Record<string, unknown>;
    const expected: Record<string, number | null> = {
      first: 1,
      last: lastPage,
      prev: page > 1 ? page - 1 : null,
      next: page < lastPage ? page + 1 : null,
    };
    for (const [name, want] of Object.entries(expected))
      if (name in l && pageOfLink(l[name]) !== want)
        found.push(`links.${name} leads to page ${String(pageOfLink(l[name]))}, not ${String(want)}`);
  }
  return found;
}

/** The rows of a list answer: a bare array, or the array under `data` (a page); none for any other body. */
export function listRows(body: unknown): unknown[] | undefined {
  const rows = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  return Array.isArray(rows) ? rows : undefined;
}

/** A row's value at the pointer of the order its list states (`x-order`'s `by`); undefined where it has none. */
export function orderValue(row: unknown, by: string): unknown {
  return by
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((v, k) => (v == null ? undefined : v[k]), row);
}
