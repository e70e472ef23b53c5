// Issue 28: `exportSubmissions` walks a form's submissions into NDJSON or CSV through a paced client,
// each once while the list shifts, and resumes from the cursor it returns. The sandbox's clock is
// held on one second, so every submission answered here shares it: the cursor's ids are all that
// tells the resumed export which of them the first one wrote (the list has no second sort key).
import { createFormsClient, createRequestPacer, type FormsClient } from '@forms-api/client';
import { exportSubmissions, formFields } from '@forms-api/client/submissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { sandbox } from './support.js';

const FORM = 11;
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
let s: SandboxHandle;
let client: FormsClient;
let pacer: ReturnType<typeof createRequestPacer>;
let answer: (name: string) => Promise<number>;

beforeAll(async () => {
  // The rate limit on, and a pacer above it: every request of the export goes through the pacer.
  s = await sandbox({ behaviour: 'observed', now: () => NOW, rateLimit: { limit: 1000, windowMs: 60_000 } });
  pacer = createRequestPacer({ requestsPerMinute: 6000 });
  client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 }, pacing: pacer });
  const form = await client.forms.get(FORM);
  const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
  answer = async (name) => {
    await client.answers.submit(form.slug, { [field('Name')]: name, [field('Email')]: 'export@example.com' });
    const [newest] = (await client.submissions.list(FORM, { perPage: 1 })).data;
    return newest!.id;
  };
});
afterAll(() => s?.close());

async function allIds(): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of client.submissions.pages(FORM)) ids.push(...page.data.map((x) => x.id));
  return ids;
}

describe('exportSubmissions over HTTP (observed sandbox)', () => {
  it('writes each submission once while others arrive, and a resumed export writes exactly the rest', async () => {
    const first = [await answer('first a'), await answer('first b')];
    const before = await allIds();
    const arrived: number[] = [];
    const lines: string[] = [];
    const requestsBefore = pacer.stats().requests;
    const progress: number[] = [];
    const one = await exportSubmissions(client, FORM, {
      format: 'ndjson',
      perPage: 50,
      onProgress: (p) => progress.push(p.written),
      to: async (text) => {
        lines.push(...text.split('\n').filter(Boolean));
        // Answered between two pages, in the same second as the newest already written.
        if (arrived.length < 4) arrived.push(await answer('mid-walk'), await answer('mid-walk'));
      },
    });
    const written = lines.map((l) => JSON.parse(l) as { id: number; key: string; createdAt: string });
    const ids = written.map((w) => w.id);
    expect(ids.length).toBe(new Set(ids).size);
    expect([...ids].sort()).toEqual([...before].sort());
    expect(written[0]).toMatchObject({ key: `${FORM}:${first[1]}`, createdAt: new Date(NOW).toISOString() });
    expect(one.cursor).toBe(`2026-06-01T12:00:00Z#${first.join(',')}`);
    expect(one.written).toBe(before.length);
    expect(progress.at(-1)).toBe(before.length);
    // Every request of the export went through the client's pacer: the form once, then each page.
    expect(pacer.stats().requests - requestsBefore - arrived.length * 2).toBe(one.pages + one.formReads);

    const again: number[] = [];
    const two = await exportSubmissions(client, FORM, {
      format: 'ndjson',
      since: one.cursor!,
      to: (text) =>
        again.push(
          ...text
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { id: number }).id),
        ),
    });
    expect(again.sort()).toEqual([...arrived].sort());
    expect(two.cursor).toBe(`2026-06-01T12:00:00Z#${[...first, ...arrived].sort((a, b) => a - b).join(',')}`);

    const none: string[] = [];
    const three = await exportSubmissions(client, FORM, {
      format: 'ndjson',
      since: two.cursor!,
      to: (t) => none.push(t),
    });
    expect([none, three.cursor, three.pages]).toEqual([[], two.cursor, 1]);
  });

  it('writes CSV with a column per field, file answers by name, and no cell a spreadsheet would run', async () => {
    const formula = '=HYPERLINK("https://evil.example","x")';
    const id = await answer(formula);
    const chunks: string[] = [];
    const stream = new WritableStream<string>({ write: (chunk) => void chunks.push(chunk) });
    const done = await exportSubmissions(client, FORM, { format: 'csv', since: '2026-06-01 12:00:00', to: stream });
    const [header, ...rows] = chunks.join('').split('\r\n').filter(Boolean);
    const fields = formFields(await client.forms.get(FORM));
    expect(header).toBe(
      [
        'id',
        'public_id',
        'status',
        'created_at',
        'completion_time',
        ...[...fields].map(([fid, f]) => `${f.name} (${fid})`),
        'other_answers',
      ]
        .map((c) => `"${c}"`)
        .join(','),
    );
    expect(rows).toHaveLength(done.written);
    const row = rows.find((r) => r.startsWith(`${id},`))!;
    expect(row).toContain(`"'=HYPERLINK(""https://evil.example"",""x"")"`);

    // Form 16's answers hold files: the CSV names them.
    const csv: string[] = [];
    const ndjson: string[] = [];
    await exportSubmissions(client, 16, { format: 'csv', status: 'completed', to: (t) => csv.push(t) });
    await exportSubmissions(client, 16, { format: 'ndjson', status: 'completed', to: (t) => ndjson.push(t) });
    const firstListed = JSON.parse(ndjson.join('').split('\n')[0]!) as {
      answers: Record<string, { files: { file_name: string }[] | null }>;
    };
    const names = Object.values(firstListed.answers).flatMap((a) => a.files?.map((f) => f.file_name) ?? []);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(csv.join('')).toContain(name);
  });

  it('refuses a since it cannot read, before sending anything', async () => {
    const before = pacer.stats().requests;
    await expect(
      exportSubmissions(client, FORM, { format: 'ndjson', since: 'yesterday', to: () => {} }),
    ).rejects.toMatchObject({
      kind: 'invalid_option',
      message: expect.stringMatching(/since.*cursor/),
    });
    expect(pacer.stats().requests).toBe(before);
  });
});
