// The submission list in `observed` against `contract`, over HTTP: per_page as min((int), 100)
// with 0 or text read as 15 and a negative size listing every row, an unknown status ignored,
// status=partial on the free workspace, a manage-integrations token reading, links that drop every
// filter, and the public UUID as `submission_id`. Contract answers are validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

type Which = 'contract' | 'observed';
const list = (which: Which, formId: number, query = '', token: string = sbs[which].tokens.read) =>
  call(sbs[which].baseUrl, 'GET', `/open/forms/${formId}/submissions${query}`, {
    token,
    ...(which === 'contract' ? { operationId: 'listFormSubmissions' } : {}),
  });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('per_page (submissions-per-page-not-validated)', () => {
  it('is min((int) per_page, 100), 15 for 0 or text, in both; a negative size lists every row in observed, 15 in contract', async () => {
    const total = (await list('observed', 12, '?per_page=1')).body.meta.total;
    expect(total).toBe(300);
    const cases: Array<[string, number, number]> = [
      // query, observed per_page, contract per_page
      ['', 100, 100],
      ['?per_page=1000', 100, 100],
      ['?per_page=12.9', 12, 12],
      ['?per_page=7abc', 7, 7],
      ['?per_page=0', 15, 15],
      ['?per_page=many', 15, 15],
      ['?per_page=', 15, 15],
      ['?per_page=-5', -5, 15],
    ];
    for (const [query, observedSize, contractSize] of cases) {
      const [observed, contract] = [await list('observed', 12, query), await list('contract', 12, query)];
      expect([observed.status, contract.status], query).toEqual([200, 200]);
      expect(observed.body.meta.per_page, query).toBe(observedSize);
      expect(contract.body.meta.per_page, query).toBe(contractSize);
      expect(contract.body.data, query).toHaveLength(contractSize);
      expect(observed.body.data, query).toHaveLength(observedSize < 0 ? total : observedSize);
    }
    // Every row on one page, with the paginator's arithmetic on the negative size.
    const { meta } = (await list('observed', 12, '?per_page=-5')).body;
    expect(meta).toMatchObject({ current_page: 1, last_page: 1, from: 1, to: total, total });
  });
});

describe('status', () => {
  it('ignores an unknown status in both: the whole list', async () => {
    for (const which of ['observed', 'contract'] as const) {
      const [all, unknown] = [
        await list(which, 12, '?per_page=1'),
        await list(which, 12, '?per_page=1&status=archived'),
      ];
      expect(unknown.status, which).toBe(200);
      expect(unknown.body.meta.total, which).toBe(all.body.meta.total);
    }
  });

  it('submissions-partial-filter-not-gated: status=partial on the free workspace is 200 in observed, 403 in contract', async () => {
    const observed = await list('observed', 21, '?status=partial', sbs.observed.tokens.all);
    expect(observed.status).toBe(200);
    // Nothing partial is stored on the free workspace's form: the filter lists nothing.
    expect(observed.body.meta.total).toBe(0);
    const contract = await list('contract', 21, '?status=partial', sbs.contract.tokens.all);
    expect(contract.status).toBe(403);
    expect(contract.body.message).toMatch(/Pro feature/);
    // On the Pro workspace both list the partial submissions.
    for (const which of ['observed', 'contract'] as const) {
      const partials = await list(which, 12, '?status=partial&per_page=100');
      expect(partials.body.meta.total, which).toBeGreaterThan(0);
      expect(
        partials.body.data.every((s: { data: { status: string } }) => s.data.status === 'partial'),
        which,
      ).toBe(true);
    }
  });
});

describe('who may read', () => {
  it('submissions-read-with-manage-integrations: a manage-integrations token without forms-read lists in observed, 403 in contract', async () => {
    const observed = await list('observed', 12, '?per_page=2', sbs.observed.tokens.integrations);
    expect(observed.status).toBe(200);
    expect(observed.body.data).toHaveLength(2);
    expect((await list('contract', 12, '?per_page=2', sbs.contract.tokens.integrations)).status).toBe(403);
    // Still a member's right only, and a token with neither ability is refused in both.
    expect((await list('observed', 12, '', sbs.observed.tokens.none)).status).toBe(403);
    expect((await list('observed', 12, '', sbs.observed.tokens.outsider)).status).toBe(403);
  });
});

describe('links (submissions-links-drop-filters)', () => {
  it('are <path>?page=N in observed, whatever the filters; contract links keep search, status and per_page', async () => {
    const query = '?status=completed&per_page=5&search=a&page=2';
    const [observed, contract] = [(await list('observed', 12, query)).body, (await list('contract', 12, query)).body];
    const path = (which: Which) => `${sbs[which].baseUrl}/open/forms/12/submissions`;
    const o = path('observed');
    expect(observed.meta).toMatchObject({ current_page: 2, per_page: 5, path: o });
    expect(observed.links).toEqual({
      first: `${o}?page=1`,
      last: `${o}?page=${observed.meta.last_page}`,
      prev: `${o}?page=1`,
      next: `${o}?page=3`,
    });
    expect(
      observed.meta.links
        .filter((l: { url: string | null }) => l.url !== null)
        .every((l: { url: string }) => /\?page=\d+$/.test(l.url)),
    ).toBe(true);
    const next = new URL(contract.links.next);
    expect(`${next.origin}${next.pathname}`).toBe(path('contract'));
    expect(Object.fromEntries(next.searchParams)).toEqual({
      status: 'completed',
      per_page: '5',
      search: 'a',
      page: '3',
    });
    // Following observed's next leads into the unfiltered list at 100 per page.
    const followed = (
      await call(sbs.observed.baseUrl, 'GET', observed.links.next.slice(sbs.observed.baseUrl.length), {
        token: sbs.observed.tokens.read,
      })
    ).body;
    expect(followed.meta).toMatchObject({ per_page: 100, current_page: 3, total: 300 });
  });
});

describe('submission_id', () => {
  it('is the public UUID at the top and in data in observed; contract items have only the integer id', async () => {
    const [observed] = (await list('observed', 11, '?per_page=1')).body.data;
    const [contract] = (await list('contract', 11, '?per_page=1')).body.data;
    expect(observed.id).toBe(contract.id);
    expect(observed.submission_id).toMatch(UUID);
    expect(observed.data.submission_id).toBe(observed.submission_id);
    expect(Object.keys(observed)).toEqual(['data', 'completion_time', 'form_id', 'id', 'submission_id']);
    expect(Object.keys(observed.data).slice(-4)).toEqual(['status', 'created_at', 'id', 'submission_id']);
    expect(contract).not.toHaveProperty('submission_id');
    expect(contract.data).not.toHaveProperty('submission_id');
  });
});
