// Listing submissions: filters, search on values only, newest first, pages with links that keep
// the filters, parameters read (never refused) as the spec describes and the Pro gate on partial
// submissions (403); updates change only the fields sent; signed file URLs expire and refuse
// tampering; the rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

describe('listing submissions', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());
  const list = (query: string, token = sb.tokens.read) =>
    call(sb.baseUrl, 'GET', `/open/forms/12/submissions?${query}`, { token, operationId: 'listFormSubmissions' });

  it('walks every page with filters kept, each submission once, newest first', async () => {
    const seen: Array<{ id: number; created: string; status: string }> = [];
    let url: string | null = `${sb.baseUrl}/open/forms/12/submissions?status=completed&per_page=37&search=a`;
    while (url) {
      const page = await call(sb.baseUrl, 'GET', url.slice(sb.baseUrl.length), {
        token: sb.tokens.read,
        operationId: 'listFormSubmissions',
      });
      for (const s of page.body.data) seen.push({ id: s.id, created: s.data.created_at, status: s.data.status });
      expect(new URL(page.body.links.first).searchParams.get('per_page')).toBe('37');
      url = page.body.links.next;
    }
    const total = (await list('status=completed&per_page=1&search=a')).body.meta.total;
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((s) => s.id)).size).toBe(total);
    expect(seen.every((s) => s.status === 'completed')).toBe(true);
    expect(seen.map((s) => s.created)).toEqual([...seen.map((s) => s.created)].sort().reverse());
  });

  it('searches answer values case-insensitively, never keys', async () => {
    const byValue = await list('search=ZÜRICH&per_page=100', sb.tokens.read);
    const form11 = await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?search=z%C3%BCRICH&per_page=5', {
      token: sb.tokens.read,
    });
    expect(form11.body.meta.total).toBeGreaterThan(0);
    expect(JSON.stringify(form11.body.data[0].data).toLowerCase()).toContain('zürich');
    expect(byValue.status).toBe(200);
    const fieldId = Object.keys(form11.body.data[0].data)[0]!;
    expect(
      (await call(sb.baseUrl, 'GET', `/open/forms/11/submissions?search=${fieldId}`, { token: sb.tokens.read })).body
        .meta.total,
    ).toBe(0);
    expect((await list('search=status')).body.meta.total).toBe(0);
    expect((await list('search=%25')).body.meta.total).toBe(0); // % is a literal, not a wildcard
  });

  it('finds an updated or new answer by search at once, and no longer the replaced one', async () => {
    const form = (await call(sb.baseUrl, 'GET', '/open/forms/12', { token: sb.tokens.read })).body;
    const name = form.properties.find((p: { name: string }) => p.name === 'Full name').id;
    await list('search=jane'); // the search texts exist before the change
    const [target] = (await list('per_page=1&search=jane')).body.data;
    await call(sb.baseUrl, 'PUT', `/open/forms/12/submissions/${target.id}`, {
      token: sb.tokens.write,
      body: { [name]: 'Quetzalcoatl Renamed' },
    });
    expect((await list('search=QUETZALCOATL')).body.data.map((s: { id: number }) => s.id)).toEqual([target.id]);
    expect((await list('search=jane&per_page=100')).body.data.map((s: { id: number }) => s.id)).not.toContain(
      target.id,
    );
    await call(sb.baseUrl, 'POST', '/forms/12/answer', { body: { [name]: 'Xochitl Newcomer' } });
    expect((await list('search=xochitl')).body.meta.total).toBe(1);
  });

  it('reads out-of-range and unknown parameters as the spec describes, never refusing them', async () => {
    const all = (await list('per_page=1')).body.meta.total;
    const cases: Array<[string, { per_page: number; current_page: number; total: number }]> = [
      ['per_page=101', { per_page: 100, current_page: 1, total: all }],
      ['per_page=0', { per_page: 15, current_page: 1, total: all }],
      ['per_page=many', { per_page: 15, current_page: 1, total: all }],
      ['per_page=-3', { per_page: 15, current_page: 1, total: all }],
      ['per_page=', { per_page: 15, current_page: 1, total: all }],
      ['per_page=12.9', { per_page: 12, current_page: 1, total: all }],
      ['page=0', { per_page: 100, current_page: 1, total: all }],
      ['page=two', { per_page: 100, current_page: 1, total: all }],
      ['status=archived', { per_page: 100, current_page: 1, total: all }],
      ['search=', { per_page: 100, current_page: 1, total: all }],
      ['search=%20%20', { per_page: 100, current_page: 1, total: all }],
    ];
    for (const [query, meta] of cases) {
      const result = await list(query);
      expect(result.status, query).toBe(200);
      expect(result.body.meta, query).toMatchObject(meta);
      expect(result.body.data.length, query).toBe(Math.min(meta.per_page, all));
    }
  });

  it('refuses the partial filter below Pro (403) and lists partials on Pro', async () => {
    const refused = await call(sb.baseUrl, 'GET', '/open/forms/21/submissions?status=partial', {
      token: sb.tokens.all,
      operationId: 'listFormSubmissions',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Pro feature.*status=completed or all/);
    expect(
      (
        await call(sb.baseUrl, 'GET', '/open/forms/21/submissions?status=completed', {
          token: sb.tokens.all,
          operationId: 'listFormSubmissions',
        })
      ).status,
    ).toBe(200);
    const partials = await list('status=partial&per_page=100');
    expect(partials.body.meta.total).toBeGreaterThan(0);
    expect(partials.body.data.every((s: { data: { status: string } }) => s.data.status === 'partial')).toBe(true);
  });

  it('updates only the fields sent', async () => {
    const [before] = (await list('per_page=1&status=completed')).body.data;
    const form = (await call(sb.baseUrl, 'GET', '/open/forms/12', { token: sb.tokens.read })).body;
    const name = form.properties.find((p: { name: string }) => p.name === 'Full name').id;
    const age = form.properties.find((p: { name: string }) => p.name === 'Age').id;
    const updated = await call(sb.baseUrl, 'PUT', `/open/forms/12/submissions/${before.id}`, {
      token: sb.tokens.write,
      body: { [name]: 'Renamed', completion_time: 7 },
      operationId: 'updateFormSubmission',
    });
    expect(updated.body.data.data[name]).toBe('Renamed');
    const [after] = (await list('per_page=1&status=completed')).body.data;
    expect(after.data[name]).toBe('Renamed');
    expect(after.completion_time).toBe(7);
    // Every other answer is kept (file entries are re-signed, so only plain values are compared).
    expect(Object.keys(after.data).sort()).toEqual(Object.keys(before.data).sort());
    for (const [key, value] of Object.entries(before.data))
      if (key !== name && !Array.isArray(value)) expect(after.data[key]).toEqual(value);
    const bad = await call(sb.baseUrl, 'PUT', `/open/forms/12/submissions/${before.id}`, {
      token: sb.tokens.write,
      body: { [age]: 'forty' },
      operationId: 'updateFormSubmission',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual([age]);
    expect(
      (
        await call(sb.baseUrl, 'PUT', '/open/forms/12/submissions/99999999', {
          token: sb.tokens.write,
          body: { completion_time: 1 },
          operationId: 'updateFormSubmission',
        })
      ).status,
    ).toBe(404);
  });
});

describe('signed file URLs', () => {
  it('serve the file, refuse a tampered URL and expire after 10 minutes', async () => {
    let now = Date.UTC(2026, 5, 1);
    const sb = await sandbox({ now: () => now });
    try {
      let url: string | undefined;
      for (let page = 1; !url && page < 10; page++) {
        const body = (
          await call(sb.baseUrl, 'GET', `/open/forms/11/submissions?page=${page}`, { token: sb.tokens.read })
        ).body;
        url = body.data
          .flatMap((s: { data: Record<string, unknown> }) => Object.values(s.data))
          .find((v: unknown) => Array.isArray(v) && (v[0] as { file_url?: string })?.file_url)?.[0].file_url;
      }
      expect(url).toMatch(/\/submissions\/file\/[A-Za-z0-9_-]+\?expires=\d+&signature=[0-9a-f]{64}$/);
      const ok = await fetch(url!);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-disposition')).toMatch(
        /^attachment; filename="?invoice-\d+_[0-9a-f-]{36}\.pdf"?$/,
      );
      expect((await fetch(url!.replace(/signature=(.)/, (_m, c) => `signature=${c === 'a' ? 'b' : 'a'}`))).status).toBe(
        403,
      );
      expect((await fetch(url!.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 60}`))).status).toBe(403);
      now += 10 * 60 * 1000 + 1000;
      expect((await fetch(url!)).status).toBe(403);
    } finally {
      await sb.close();
    }
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a user exceeds the limit', async () => {
    const sb = await sandbox({ rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', {
          token: sb.tokens.all,
          operationId: 'listWorkspaceForms',
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
      // Another user has a budget of their own.
      expect((await call(sb.baseUrl, 'GET', '/open/workspaces/2/forms', { token: sb.tokens.outsider })).status).toBe(
        200,
      );
    } finally {
      await sb.close();
    }
  });
});
