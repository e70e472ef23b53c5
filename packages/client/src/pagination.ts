// Walks a paginated list one page at a time: each page is requested by number with the caller's
// filters (the service's `links.next` drops them), only one page is held at a time, and the walk
// stops at the last page, on an empty page, or at a page cap against a server that never ends.
import { FormsApiError } from './errors.js';

/** A list's pages (Laravel's paginator: `data`, and `meta` with `current_page` and `total`). */
export interface PagedList<T> {
  readonly data: readonly T[];
  readonly meta?: { readonly current_page: number; readonly total: number };
}

/** One walk of a list: where its pages come from and where it starts and stops. */
export interface Walk<P extends PagedList<unknown>> {
  /** Human name of the list, for errors: "submissions of form 42". */
  readonly label: string;
  fetch(page: number): Promise<P>;
  isLast(page: P): boolean;
  readonly startPage: number;
  readonly maxPages: number;
  readonly perPage: number;
}

export const DEFAULT_MAX_PAGES = 10_000;

export async function* walkPages<P extends PagedList<unknown>>(walk: Walk<P>): AsyncGenerator<P, void, undefined> {
  const { label, maxPages, startPage } = walk;
  for (let fetched = 0, page = startPage; ; fetched++, page++) {
    if (fetched >= maxPages)
      throw new FormsApiError(
        'pagination',
        `Listing the ${label} stopped after ${maxPages} pages (\`maxPages\`) without reaching the last page: raise \`maxPages\` if the list really is that long, or check the service.`,
      );
    const result = await walk.fetch(page);
    if (!result.data?.length) return;
    const current = result.meta?.current_page;
    if (current !== undefined && current !== page)
      throw new FormsApiError(
        'pagination',
        `Listing the ${label}: asked for page ${page} but the service answered page ${current}; a proxy may be dropping the query string. Stopped to avoid looping.`,
      );
    yield result;
    if (walk.isLast(result)) return;
  }
}

/**
 * The items of each page, each id once. A page-number list shifts while it is walked. An item added
 * ahead of the walk pushes the rest one place down: the next page starts with an item already
 * yielded, dropped here by its id (only ids are kept, not items). An item removed ahead of the walk
 * (deleted, or out of a filter) pulls the rest one place up: the first item of the next page moves
 * onto a page already read and would be missed. Items are only added at the head of a newest-first
 * list, so the shift is at least the change of `total`: when it grew or held, nothing moved back
 * past the walk; when it fell by d, the pages the last d places before this one are read again.
 * `stopAfter` ends the walk after the page holding an item for which it is true.
 */
export async function* walkItems<T extends { readonly id: unknown }>(
  walk: Walk<PagedList<T>>,
  stopAfter?: (item: T) => boolean,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<unknown>();
  let stop = false;
  let lastTotal: number | undefined;
  let page = walk.startPage;
  function* fresh({ data }: PagedList<T>) {
    for (const item of data) {
      if (stopAfter?.(item)) stop = true;
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      yield item;
    }
  }
  for await (const result of walkPages(walk)) {
    yield* fresh(result);
    // Compared with the pages walked forward only: a removal seen first by a page read again moved
    // items onto this page, which the next page's total tells.
    const total = result.meta?.total;
    const first = firstPageMovedOnto(walk, page, lastTotal, total);
    if (first !== undefined) for (let back = page - 1; back >= first; back--) yield* fresh(await walk.fetch(back));
    lastTotal = total;
    page++;
    if (stop) return;
  }
}

/**
 * The first page that items of pages not yet read may have moved onto, read again from there up to
 * `page` (see `walkItems`): when the list's `total` fell by d between the page before and `page`,
 * the pages the last d places before `page`; undefined when nothing moved back past the walk. For
 * walkers that keep their place elsewhere (the webhook inbox's reconciler walks one page per
 * queued step).
 */
export function firstPageMovedOnto(
  walk: { readonly startPage: number; readonly perPage: number },
  page: number,
  lastTotal: number | undefined,
  total: number | undefined,
): number | undefined {
  if (total === undefined || lastTotal === undefined || total >= lastTotal || page <= walk.startPage) return undefined;
  return Math.max(walk.startPage, page - Math.ceil((lastTotal - total) / walk.perPage));
}
