import { afterEach, expect, it } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

/** A submissions endpoint over `total` items that, like the live service, drops filters from links. */
function submissionsServer(total: number, expectQuery: Record<string, string>, opts: { stuck?: boolean } = {}) {
  return startServer((req, res) => {
    for (const [k, v] of Object.entries(expectQuery))
      if (req.url.searchParams.get(k) !== v)
        return json(res, 400, { message: `missing ${k}=${v} on ${req.url.search}` });
    const perPage = Number(req.url.searchParams.get('per_page') ?? 100);
    const page = opts.stuck ? 1 : Number(req.url.searchParams.get('page') ?? 1);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({
      id: from + i + 1,
      form_id: 42,
      completion_time: null,
      data: { id: from + i + 1, status: 'completed', created_at: '2025-01-01' },
    }));
    const base = `http://127.0.0.1/open/forms/42/submissions`;
    json(res, 200, {
      data,
      links: {
        first: `${base}?page=1`,
        last: `${base}?page=${lastPage}`,
        prev: null,
        next: page < lastPage ? `${base}?page=${page + 1}` : null,
      },
      meta: {
        current_page: page,
        from: from + 1,
        last_page: lastPage,
        links: [],
        path: base,
        per_page: perPage,
        to: from + data.length,
        total,
      },
    });
  });
}

it('walks 10,000 submissions 100 per page with search, status and per_page on every request', async () => {
  server = await submissionsServer(10_000, { search: 'jane doe', status: 'all', per_page: '100' });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  let count = 0;
  let lastId = 0;
  for await (const submission of client.submissions.iterate(42, { search: 'jane doe', status: 'all', perPage: 100 })) {
    count++;
    expect(submission.id).toBe(lastId + 1);
    lastId = submission.id;
  }
  expect(count).toBe(10_000);
  expect(server.requests).toHaveLength(100);
  expect(server.requests.map((r) => r.url.searchParams.get('page'))).toEqual(
    Array.from({ length: 100 }, (_, i) => String(i + 1)),
  );
});

it('pages() yields one page at a time and stops at meta.last_page', async () => {
  server = await submissionsServer(250, { per_page: '100' });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const sizes: number[] = [];
  for await (const page of client.submissions.pages(42)) sizes.push(page.data.length);
  expect(sizes).toEqual([100, 100, 50]);
  expect(server.requests).toHaveLength(3);
});

it('an early break stops fetching', async () => {
  server = await submissionsServer(10_000, {});
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  let seen = 0;
  for await (const _ of client.submissions.iterate(42, { perPage: 10 })) if (++seen === 25) break;
  expect(server.requests).toHaveLength(3);
});

it('stops on an empty page', async () => {
  server = await startServer((_req, res) =>
    json(res, 200, { data: [], links: {}, meta: { current_page: 1, last_page: 99, per_page: 100, total: 9900 } }),
  );
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const items = [];
  for await (const s of client.submissions.iterate(42)) items.push(s);
  expect(items).toEqual([]);
  expect(server.requests).toHaveLength(1);
});

it('guards against a server that never ends: maxPages, and a page that is not the one asked for', async () => {
  server = await submissionsServer(1_000_000, {});
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const capped = async () => {
    for await (const _ of client.submissions.pages(42, {}, { maxPages: 5 }));
  };
  await expect(capped()).rejects.toMatchObject({ kind: 'pagination' });
  expect(server.requests).toHaveLength(5);
  await server.close();

  server = await submissionsServer(1000, {}, { stuck: true });
  const stuck = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const err = await (async () => {
    for await (const _ of stuck.submissions.iterate(42));
  })().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormsApiError);
  expect((err as FormsApiError).message).toMatch(/asked for page 2 but the service answered page 1/);
});

it('walks workspace forms, computing the last page from total and per_page', async () => {
  const total = 23;
  server = await startServer((req, res) => {
    const perPage = Number(req.url.searchParams.get('per_page'));
    const page = Number(req.url.searchParams.get('page'));
    const from = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({ id: from + i + 1 }));
    json(res, 200, { data, meta: { current_page: page, per_page: perPage, total } });
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const ids: number[] = [];
  for await (const form of client.forms.iterate(12, { perPage: 5 })) ids.push(form.id);
  expect(ids).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
  expect(server.requests).toHaveLength(5);
  expect(
    server.requests.every(
      (r) => r.url.pathname === '/open/workspaces/12/forms' && r.url.searchParams.get('per_page') === '5',
    ),
  ).toBe(true);
});
