// A page of a paginated list is judged by what it says about itself: its meta and links must
// agree with its rows and the page asked for. Pages built as Laravel's paginator builds them pass,
// for any total, page size and page; a miscounted one does not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationsOf } from '../src/operations.js';
import { askedPage, pageContradictions, paginatedOperations } from '../src/page-invariants.js';
import { loadSpec } from '../src/spec.js';

const PATH = 'https://tenant.example/open/forms/7/submissions';
const url = (n: number) => `${PATH}?page=${n}`;

/** A page as the service's paginator lays it out. */
function page(total: number, size: number, current: number) {
  const offset = (current - 1) * size;
  const rows = Array.from({ length: Math.max(0, Math.min(size, total - offset)) }, (_, i) => ({ id: offset + i }));
  const last = Math.max(1, Math.ceil(total / size));
  const from = rows.length > 0 ? offset + 1 : null;
  return {
    data: rows,
    links: {
      first: url(1),
      last: url(last),
      prev: current > 1 ? url(current - 1) : null,
      next: current < last ? url(current + 1) : null,
    },
    meta: {
      current_page: current,
      from,
      last_page: last,
      links: [],
      path: PATH,
      per_page: size,
      to: from === null ? null : from + rows.length - 1,
      total,
    },
  };
}

const pages = fc.record({ total: fc.nat(2_000), size: fc.integer({ min: 1, max: 100 }) }).chain(({ total, size }) =>
  fc.record({
    total: fc.constant(total),
    size: fc.constant(size),
    current: fc.integer({ min: 1, max: Math.ceil(total / size) + 3 }),
  }),
);

describe('the invariants of a page', () => {
  it('hold for every page the paginator makes, beyond the last included', () => {
    fc.assert(
      fc.property(pages, ({ total, size, current }) => {
        expect(pageContradictions(page(total, size, current), current)).toEqual([]);
      }),
    );
  });

  it('hold for the contract envelope, which has no from, to, last_page or links', () => {
    fc.assert(
      fc.property(pages, ({ total, size, current }) => {
        const { data, meta } = page(total, size, current);
        const { current_page, per_page } = meta;
        expect(pageContradictions({ data, meta: { current_page, per_page, total } }, current)).toEqual([]);
      }),
    );
  });

  it('fail on a page whose total counts one row more than there are', () => {
    // On the last page it changes either the rows due there or the number of pages.
    fc.assert(
      fc.property(pages, ({ total, size, current }) => {
        fc.pre(current === Math.max(1, Math.ceil(total / size)));
        const miscounted = page(total, size, current);
        miscounted.meta.total += 1;
        expect(pageContradictions(miscounted, current)).not.toEqual([]);
      }),
    );
  });

  it('fail on a page whose to, from or last_page is off by one, a row short, or another page than asked', () => {
    fc.assert(
      fc.property(
        pages,
        fc.constantFrom('to', 'from', 'last_page', 'row', 'page'),
        ({ total, size, current }, what) => {
          const bad = page(total, size, current);
          if (what === 'row') {
            fc.pre(bad.data.length > 0);
            bad.data.pop();
          } else if (what === 'page') bad.meta.current_page += 1;
          else if (what === 'last_page') bad.meta.last_page += 1;
          else {
            fc.pre(bad.meta[what] !== null);
            bad.meta[what]! += 1;
          }
          expect(pageContradictions(bad, current)).not.toEqual([]);
        },
      ),
    );
  });

  it('fail on links that lead to another page than their name says', () => {
    const bad = page(30, 10, 2);
    bad.links.next = url(2);
    expect(pageContradictions(bad, 2)).toEqual(['links.next leads to page 2, not 3']);
  });

  it('are not judged on a page size that is no page size (a drift the schema reports)', () => {
    const all = page(30, 30, 1);
    all.meta.per_page = -5;
    expect(pageContradictions(all, 1)).toEqual([]);
  });
});

describe('the page asked for', () => {
  it('is the last page value, a whole number from 1; anything else asks for none', () => {
    expect(askedPage(`${PATH}?page=3`)).toBe(3);
    expect(askedPage(`${PATH}?page=1&page=%204%20`)).toBe(4);
    expect(askedPage(`${PATH}?page=%2B2`)).toBe(2);
    for (const value of ['0', '-1', '01', '1.5', 'two', '', '99999999999999999999'])
      expect(askedPage(`${PATH}?page=${value}`), value).toBeUndefined();
    expect(askedPage(PATH)).toBeUndefined();
  });
});

describe('the paginated operations', () => {
  it('are read from the spec: a 200 with data and meta, or a page or per_page in the query', () => {
    const { bundle } = loadSpec();
    expect([...paginatedOperations(bundle, operationsOf(bundle))].sort()).toEqual([
      'listFormSubmissions',
      'listWorkspaceForms',
    ]);
  });
});
