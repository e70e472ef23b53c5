// exportFormSubmissions as its spec says, in both behaviours: 404 → 422 → 403, the CSV (columns as
// asked, newest first, submissionIds honoured, quoted so any answer reads back) up to 1,000
// submissions and a job id above, and a rate-limit bucket of its own of 10 a minute per user.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvText } from '../src/csv.js';
import { defaultSeed, type SandboxHandle } from '../src/index.js';
import { call, fieldIds, sandbox, sideBySide } from './support.js';

const EXPORT = (form: number | string) => `/open/forms/${form}/submissions/export`;

/** RFC 4180's reading of CSV text (the test's own reader, to judge the writer by). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  while (i < text.length) {
    if (text[i] === '"') {
      // The closing quote is the first one not doubled; doubled ones are skipped two at a time.
      let j = i + 1;
      for (;;) {
        const at = text.indexOf('"', j);
        if (at < 0) throw new Error('unterminated quoted field');
        if (text[at + 1] === '"') j = at + 2;
        else {
          field += text.slice(i + 1, at).replace(/""/g, '"');
          i = at + 1;
          break;
        }
      }
    } else if (text[i] === ',') {
      endField();
      i++;
    } else if (text.startsWith('\r\n', i)) {
      endField();
      rows.push(row);
      row = [];
      i += 2;
    } else if (text[i] === '\r' || text[i] === '\n') throw new Error(`bare ${JSON.stringify(text[i])}`);
    else field += text[i++];
  }
  if (field !== '' || row.length > 0) throw new Error('the last row has no CRLF');
  return rows;
}

describe('the CSV writer', () => {
  it('writes rows that an RFC 4180 reader gets back exactly: quotes, commas, line breaks, non-ASCII', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', ',', '\r', '\n', ' ', '=', '\u2028') });
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { maxLength: 5 }), (rows) => {
        // A row of one empty field reads back as one empty field only when it is written as such.
        expect(readCsv(csvText(rows))).toEqual(rows);
      }),
    );
  });
});

for (const behaviour of ['contract', 'observed'] as const) {
  describe(`exportFormSubmissions (${behaviour})`, () => {
    let sb: SandboxHandle;
    let fields: Record<string, string>;
    const hostile = 'Zoë "the \'boss\'", Jr.\r\nsecond line, €';
    beforeAll(async () => {
      const seed = defaultSeed();
      const newest = seed.submissions.filter((s) => s.formId === 16).sort((a, b) => b.createdAt - a.createdAt)[0]!;
      const name = seed.forms.find((f) => f.id === 16)!.properties.find((f) => f.name === 'Name')!.id;
      newest.answers[name] = hostile;
      sb = await sandbox({ behaviour, seed });
      fields = await fieldIds(sb, 16);
    });
    afterAll(() => sb.close());

    const body = () => ({ columns: { [fields.Name!]: true, [fields.Amount!]: false, created_at: true } });

    it('checks the form (404), then the body (422), then the permission (403)', async () => {
      const outsider = sb.tokens.outsider;
      const opts = (token: string, b: unknown) => ({ token, body: b, operationId: 'exportFormSubmissions' });
      expect((await call(sb.baseUrl, 'POST', EXPORT(999999), opts(outsider, { columns: {} }))).status).toBe(404);
      const invalid = await call(sb.baseUrl, 'POST', EXPORT(16), opts(outsider, { columns: { nickname: true } }));
      expect(invalid.status).toBe(422);
      expect(invalid.body.errors.columns[0]).toContain('nickname');
      for (const columns of [{}, { created_at: 'yes' }, []])
        expect((await call(sb.baseUrl, 'POST', EXPORT(16), opts(sb.tokens.all, { columns }))).status).toBe(422);
      const foreignId = { columns: { created_at: true }, submissionIds: [1001] };
      expect((await call(sb.baseUrl, 'POST', EXPORT(16), opts(sb.tokens.all, foreignId))).status).toBe(422);
      expect((await call(sb.baseUrl, 'POST', EXPORT(16), opts(outsider, body()))).status).toBe(403);
      expect((await call(sb.baseUrl, 'POST', EXPORT(16), opts(sb.tokens.write, body()))).status).toBe(403);
      expect((await call(sb.baseUrl, 'POST', EXPORT(16), opts(sb.tokens.none, body()))).status).toBe(403);
    });

    it('answers forms-read or manage-integrations of any member, read-only ones too', async () => {
      for (const token of [sb.tokens.read, sb.tokens.integrations, sb.tokens.readonly]) {
        const answer = await call(sb.baseUrl, 'POST', EXPORT(16), { token, body: body() });
        expect(answer.status).toBe(200);
      }
    });

    it('answers the CSV: the columns sent true, newest first, named by the slug', async () => {
      const answer = await call(sb.baseUrl, 'POST', EXPORT(16), { token: sb.tokens.read, body: body() });
      expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(answer.headers.get('content-disposition')).toBe(
        'attachment; filename="expense-claim-s1t2u3-submission-data.csv"',
      );
      const rows = readCsv(answer.text);
      expect(rows[0]).toEqual(['Name', 'Created at']);
      expect(rows).toHaveLength(9);
      const created = rows.slice(1).map((r) => r[1]!);
      expect(created).toEqual([...created].sort().reverse());
      expect(created.every((t) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t))).toBe(true);
      // The newest submission's hostile answer reads back whole.
      expect(rows[1]![0]).toBe(hostile);
    });

    it('exports only the submissionIds sent, newest first whatever their order', async () => {
      const answer = await call(sb.baseUrl, 'POST', EXPORT(16), {
        token: sb.tokens.read,
        body: { columns: { created_at: true, status: true }, submissionIds: [16001, 16008, 16003] },
      });
      expect(answer.status).toBe(200);
      const rows = readCsv(answer.text);
      expect(rows[0]).toEqual(['Created at', 'Status']);
      expect(rows).toHaveLength(4);
      const created = rows.slice(1).map((r) => r[0]!);
      expect(created).toEqual([...created].sort().reverse());
    });

    it('links file answers with signed URLs', async () => {
      const answer = await call(sb.baseUrl, 'POST', EXPORT(16), {
        token: sb.tokens.read,
        body: { columns: { [fields.Receipts!]: true } },
      });
      const cell = readCsv(answer.text)[1]![0]!;
      const first = cell.split(', ')[0]!;
      expect(first.startsWith(`${sb.baseUrl}/open/forms/16/submissions/file/`)).toBe(true);
      expect((await fetch(first)).status).toBe(200);
    });

    it('answers a job id (a UUID) for more than 1,000 submissions, counted as sent', async () => {
      const ids = Array.from({ length: 1001 }, (_, i) => 16001 + (i % 8));
      const answer = await call(sb.baseUrl, 'POST', EXPORT(16), {
        token: sb.tokens.read,
        body: { columns: { created_at: true }, submissionIds: ids },
        operationId: 'exportFormSubmissions',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ type: 'success', is_async: true });
      expect(answer.body.job_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const atTheLimit = await call(sb.baseUrl, 'POST', EXPORT(16), {
        token: sb.tokens.read,
        body: { columns: { created_at: true }, submissionIds: ids.slice(0, 1000) },
      });
      expect(readCsv(atTheLimit.text)).toHaveLength(9);
    });
  });
}

describe('the export rate limit', () => {
  it('is a bucket of 10 a minute per user, which the shared 100 does not count', async () => {
    const both = await sideBySide({ rateLimit: { limit: 100, windowMs: 60_000 } });
    try {
      for (const sb of [both.contract, both.observed]) {
        const columns = { columns: { created_at: true } };
        const remaining: string[] = [];
        for (let i = 0; i < 10; i++) {
          // Two tokens of one user share the bucket.
          const token = i % 2 ? sb.tokens.read : sb.tokens.all;
          const answer = await call(sb.baseUrl, 'POST', EXPORT(16), { token, body: columns });
          expect(answer.status).toBe(200);
          expect(answer.headers.get('x-ratelimit-limit')).toBe('10');
          remaining.push(answer.headers.get('x-ratelimit-remaining')!);
        }
        expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
        const refused = await call(sb.baseUrl, 'POST', EXPORT(16), {
          token: sb.tokens.all,
          body: columns,
          operationId: 'exportFormSubmissions',
        });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        const list = await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.all });
        expect(list.status).toBe(200);
        expect([list.headers.get('x-ratelimit-limit'), list.headers.get('x-ratelimit-remaining')]).toEqual([
          '100',
          '99',
        ]);
        // Another user's bucket is untouched.
        const other = await call(sb.baseUrl, 'POST', EXPORT(16), { token: sb.tokens.readonly, body: columns });
        expect(other.headers.get('x-ratelimit-remaining')).toBe('9');
      }
    } finally {
      await both.close();
    }
  });
});
