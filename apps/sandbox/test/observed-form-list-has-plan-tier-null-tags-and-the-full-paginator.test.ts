// The workspace form list in `observed` against `contract`, over HTTP: plan_tier instead of is_pro,
// null tags, the full Laravel paginator with links that keep the query, and per_page clamped to
// 1..100 (default 10) in both. Contract answers are validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

const list = (which: 'contract' | 'observed', query = '') =>
  call(sbs[which].baseUrl, 'GET', `/open/workspaces/1/forms${query}`, {
    token: sbs[which].tokens.all,
    ...(which === 'contract' ? { operationId: 'listWorkspaceForms' } : {}),
  });

describe('form summaries', () => {
  it('form-summary-plan-tier: carry plan_tier and no is_pro in observed; is_pro in contract', async () => {
    const [observed, contract] = [(await list('observed')).body.data[0], (await list('contract')).body.data[0]];
    expect(observed).toMatchObject({ id: 11, plan_tier: 'pro' });
    expect(observed).not.toHaveProperty('is_pro');
    expect(contract).toMatchObject({ id: 11, is_pro: true });
    expect(contract).not.toHaveProperty('plan_tier');
    // The service's key order: plan_tier where is_pro was.
    expect(Object.keys(observed)).toEqual(Object.keys(contract).map((k) => (k === 'is_pro' ? 'plan_tier' : k)));
    const free = (
      await call(sbs.observed.baseUrl, 'GET', '/open/workspaces/2/forms', { token: sbs.observed.tokens.all })
    ).body.data[0];
    expect(free.plan_tier).toBe('free');
  });

  it('form-summary-tags-null: show the captcha form (14) with tags null in observed, [] in contract', async () => {
    const byId = async (which: 'contract' | 'observed') =>
      (await list(which)).body.data.find((f: { id: number }) => f.id === 14);
    expect((await byId('observed')).tags).toBeNull();
    expect((await byId('contract')).tags).toEqual([]);
  });
});

describe('the list envelope', () => {
  it('form-list-meta-extended: has links and the full meta in observed, keeping the query in every link', async () => {
    const { body } = await list('observed', '?per_page=2&page=2&utm=a%20b');
    const path = `${sbs.observed.baseUrl}/open/workspaces/1/forms`;
    expect(Object.keys(body)).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(body.meta)).toEqual([
      'current_page',
      'from',
      'last_page',
      'links',
      'path',
      'per_page',
      'to',
      'total',
    ]);
    expect(body.meta).toMatchObject({ current_page: 2, from: 3, last_page: 3, path, per_page: 2, to: 4, total: 6 });
    // withQueryString(): the query as sent without `page`, then page=N last, RFC 3986 encoded.
    expect(body.links).toEqual({
      first: `${path}?per_page=2&utm=a%20b&page=1`,
      last: `${path}?per_page=2&utm=a%20b&page=3`,
      prev: `${path}?per_page=2&utm=a%20b&page=1`,
      next: `${path}?per_page=2&utm=a%20b&page=3`,
    });
    expect(body.meta.links.map((l: { label: string }) => l.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '3',
      'Next &raquo;',
    ]);
  });

  it('is data and meta {current_page, per_page, total} in contract', async () => {
    const { body } = await list('contract', '?per_page=2&page=2');
    expect(body).toEqual({ data: expect.any(Array), meta: { current_page: 2, per_page: 2, total: 6 } });
  });

  it.each(['contract', 'observed'] as const)(
    'clamps per_page to 1..100 (default 10) and reads a bad page as 1, never refusing (%s)',
    async (which) => {
      const cases: Array<[string, number, number]> = [
        ['', 10, 1],
        ['?per_page=1000', 100, 1],
        ['?per_page=0', 1, 1],
        ['?per_page=-5', 1, 1],
        ['?per_page=abc', 1, 1],
        ['?per_page=', 1, 1],
        ['?per_page=3&page=0', 3, 1],
        ['?page=x', 10, 1],
      ];
      for (const [query, perPage, page] of cases) {
        const { status, body } = await list(which, query);
        expect(status, query).toBe(200);
        expect([body.meta.per_page, body.meta.current_page], query).toEqual([perPage, page]);
        expect(body.data, query).toHaveLength(Math.min(perPage, 6));
      }
    },
  );
});
