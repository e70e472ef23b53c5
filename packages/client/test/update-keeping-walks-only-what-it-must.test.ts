// Issue 30 #10: updateKeeping walked the whole list for one submission (an old one on a form of
// 10 000 submissions cost about 100 requests, a minute of the rate limit), and its not-found
// message claimed 10 000 pages when it had read 3. The caller may pass the submission it holds
// (`current`: no walk) or narrow the walk with the list's `search`; the message says what was read.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const FORM = {
  id: 42,
  properties: [
    { id: 'name', type: 'text', name: 'Name' },
    { id: 'email', type: 'text', name: 'Email' },
  ],
};
const submission = (id: number) => ({
  id,
  form_id: 42,
  completion_time: 30,
  data: { status: 'completed' as const, created_at: '2025-01-01T00:00:00Z', id, name: `n${id}`, email: `e${id}@x.org` },
});

/** A form of `total` submissions, newest (highest id) first, 100 a page; `search` keeps those whose answers contain it. */
function formWith(total: number) {
  return startServer((req, res) => {
    if (req.method === 'PUT') return json(res, 200, { message: 'Submission updated.', data: {} });
    if (req.url.pathname === '/open/forms/42') return json(res, 200, FORM);
    const search = req.url.searchParams.get('search');
    const all = Array.from({ length: total }, (_, i) => submission(total - i)).filter(
      (s) => !search || [s.data.name, s.data.email].some((answer) => answer.includes(search)),
    );
    const page = Number(req.url.searchParams.get('page') ?? 1);
    const lastPage = Math.max(1, Math.ceil(all.length / 100));
    json(res, 200, {
      data: all.slice((page - 1) * 100, page * 100),
      meta: { current_page: page, last_page: lastPage, total: all.length },
    });
  });
}

const lists = () => server.requests.filter((r) => r.url.pathname.endsWith('/submissions'));
const put = () => JSON.parse(server.requests.find((r) => r.method === 'PUT')!.body) as Record<string, unknown>;

it('with the submission the caller holds (`current`), no list is walked: the form, then the update', async () => {
  server = await formWith(10_000);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  await client.submissions.updateKeeping(
    { form: 42, submission: 7, changes: { name: 'Jane' } },
    { current: submission(7) },
  );
  expect(server.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
    'GET /open/forms/42',
    'PUT /open/forms/42/submissions/7',
  ]);
  expect(put()).toEqual({ name: 'Jane', email: 'e7@x.org', completion_time: 30 });
});

it('a `current` that is another submission, or of another form, is refused before anything is sent', async () => {
  server = await formWith(10);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const update = { form: 42, submission: 7, changes: { name: 'Jane' } };
  for (const current of [submission(8), { ...submission(7), form_id: 43 }, { id: 7 } as never])
    await expect(client.submissions.updateKeeping(update, { current })).rejects.toMatchObject({
      kind: 'invalid_option',
      option: 'current',
    });
  await expect(client.submissions.updateKeeping(update, { search: ' ' })).rejects.toMatchObject({ option: 'search' });
  expect(server.requests).toHaveLength(0);
});

it('`search` narrows the walk: an old submission of 10 000 is found on the first page of its matches', async () => {
  server = await formWith(10_000);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  await client.submissions.updateKeeping(
    { form: 42, submission: 7, changes: { name: 'Jane' } },
    { search: 'e7@x.org' },
  );
  expect(lists()).toHaveLength(1);
  expect(lists()[0]!.url.searchParams.get('search')).toBe('e7@x.org');
  expect(put()).toEqual({ name: 'Jane', email: 'e7@x.org', completion_time: 30 });
});

it('not found after the whole list: the message says how many pages and submissions were read', async () => {
  server = await formWith(250);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.submissions
    .updateKeeping({ form: 42, submission: 9_999, changes: { name: 'Jane' } })
    .catch((e: unknown) => e as Error);
  expect(err).toMatchObject({ kind: 'not_found' });
  expect(lists()).toHaveLength(3);
  expect(err.message).toContain('the whole list was read: 250 submissions, 3 pages');
  expect(err.message).not.toContain('10000');
});

it('not found before maxPages ends the walk: the message says where it stopped and what to do', async () => {
  server = await formWith(1_000);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.submissions
    .updateKeeping({ form: 42, submission: 1, changes: { name: 'Jane' } }, { maxPages: 2 })
    .catch((e: unknown) => e as Error);
  expect(err).toMatchObject({ kind: 'not_found' });
  expect(lists()).toHaveLength(2);
  expect(err.message).toContain('not in the first 200 submissions, 2 pages');
  expect(err.message).toContain('`maxPages` (2)');
  expect(err.message).toContain('`current`');
  expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);
});
