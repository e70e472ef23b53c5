// Walks a paginated list one page at a time: each page is requested by number with the caller's
// filters (the service's `links.next` drops them), only one page is held at a time, and the walk
// stops at the last page, on an empty page, or at a page cap against a server that never ends.
import { FormsApiError } from './errors.js';

export interface PageSource<P> {
  /** Human name of the list, for errors: "submissions of form 42". */
  readonly label: string;
  fetch(page: number): Promise<P>;
  count(page: P): number;
  /** The page number the server says it returned, if it says. */
  currentPage(page: P): number | undefined;
  isLast(page: P): boolean;
}

export const DEFAULT_MAX_PAGES = 10_000;

export async function* walkPages<P>(
  source: PageSource<P>,
  startPage: number,
  maxPages: number,
): AsyncGenerator<P, void, undefined> {
  for (let fetched = 0, page = startPage; ; fetched++, page++) {
    if (fetched >= maxPages)
      throw new FormsApiError(
        'pagination',
        `Listing the ${source.label} stopped after ${maxPages} pages (\`maxPages\`) without reaching the last page: raise \`maxPages\` if the list really is that long, or check the service.`,
      );
    const result = await source.fetch(page);
    if (source.count(result) === 0) return;
    const current = source.currentPage(result);
    if (current !== undefined && current !== page)
      throw new FormsApiError(
        'pagination',
        `Listing the ${source.label}: asked for page ${page} but the service answered page ${current}; a proxy may be dropping the query string. Stopped to avoid looping.`,
      );
    yield result;
    if (source.isLast(result)) return;
  }
}

/** The items of each page, in order. */
export async function* itemsOf<P, T>(
  pages: AsyncIterable<P>,
  items: (page: P) => readonly T[],
): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* items(page);
}
