// The second audit of the service's code (shared facts, service-audit-2026-11.md), rows 1-14 and
// D5, over HTTP, observed beside contract: `data` keys in jsonb order, file and signature answers
// taken back as the service takes them, Laravel's loose integer/numeric/boolean, Guzzle's
// User-Agent, deliveries queued after the answer, the receiver's whole answer kept (jsonb order),
// events gone after 14 days, ids parsed like the service, the signed file route rate-limited,
// `logic: {}` given back as `[]`.
import { listen } from '@forms-api/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxHandle, SandboxOptions } from '../src/index.js';
import { call, fieldIds, rawRequest, receiver, sandbox } from './support.js';

let running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});
async function pair(options: SandboxOptions = {}) {
  const [observed, contract] = [
    await sandbox({ ...options, behaviour: 'observed' }),
    await sandbox({ ...options, behaviour: 'contract' }),
  ];
  running.push(observed, contract);
  return { observed, contract };
}
const list = (s: SandboxHandle, formId: number | string, query = '') =>
  call(s.baseUrl, 'GET', `/open/forms/${formId}/submissions?per_page=100${query}`, { token: s.tokens.all });
const put = (s: SandboxHandle, formId: number, id: number | string, body: unknown) =>
  call(s.baseUrl, 'PUT', `/open/forms/${formId}/submissions/${id}`, { token: s.tokens.all, body });
/** PostgreSQL's jsonb key order. */
const jsonbSorted = (keys: string[]) =>
  [...keys].sort(
    (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
/** A claim of form 16 as listed, and its field ids by name. */
async function claim(s: SandboxHandle) {
  const ids = await fieldIds(s, 16);
  const listed = (await list(s, 16)).body.data[0];
  return { ids, listed };
}

describe('row 1: the keys of `data`', () => {
  it('come in jsonb order (length, then bytes) in observed, nested ones too; in the form order in contract', async () => {
    const { observed, contract } = await pair();
    const answers = (s: Record<string, unknown>) => Object.keys(s).filter((k) => /^[0-9a-f-]{36}$/.test(k));
    for (const row of (await list(observed, 14)).body.data) {
      expect(answers(row.data)).toEqual(jsonbSorted(answers(row.data)));
      const matrix = Object.values(row.data).find(
        (v) => v && typeof v === 'object' && !Array.isArray(v) && 'Morning' in (v as object),
      ) as Record<string, string> | undefined;
      if (matrix)
        expect(Object.keys(matrix)).toEqual(
          ['Morning', 'Afternoon'].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)),
        );
      // The resource's own keys follow the answers (array_merge): status, created_at, id, submission_id.
      expect(Object.keys(row.data).slice(-4)).toEqual(['status', 'created_at', 'id', 'submission_id']);
    }
    const form14 = (
      await call(contract.baseUrl, 'GET', '/open/forms/14', { token: contract.tokens.all })
    ).body.properties.map((p: { id: string }) => p.id);
    const first = (await list(contract, 14)).body.data[0].data;
    expect(answers(first)).toEqual(form14.filter((id: string) => id in first));
  });
});

describe('row 2 and D5: file and signature answers sent back', () => {
  it('as listed: files 500, a signature 422 in observed; both taken in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const { ids, listed } = await claim(s);
      const body = {
        ...Object.fromEntries(Object.entries(listed.data).filter(([k]) => Object.values(ids).includes(k))),
      };
      const asListed = await put(s, 16, listed.id, body);
      if (s === contract) expect(asListed.status).toBe(200);
      else expect(asListed.status).toBe(500);
      const signatureOnly = await put(s, 16, listed.id, {
        ...body,
        [ids.Receipts!]: listed.data[ids.Receipts!].map((e: { file_name: string }) => e.file_name),
      });
      if (s === contract) expect(signatureOnly.status).toBe(200);
      else expect(signatureOnly.body.errors).toEqual({ [ids.Signature!]: ['The Signature field must be a string.'] });
    }
  });

  it('as stored names (files a list, a signature one name): kept in both; a name the form does not hold is "Invalid file." in observed', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const { ids, listed } = await claim(s);
      const names = listed.data[ids.Receipts!].map((e: { file_name: string }) => e.file_name);
      const signature = listed.data[ids.Signature!][0].file_name;
      const body = {
        [ids.Name!]: 'Changed',
        [ids.Amount!]: listed.data[ids.Amount!],
        [ids.Receipts!]: names,
        [ids.Signature!]: signature,
        completion_time: listed.completion_time,
      };
      expect((await put(s, 16, listed.id, body)).status).toBe(200);
      const after = (await list(s, 16)).body.data.find((r: { id: number }) => r.id === listed.id);
      expect(after.data[ids.Receipts!].map((e: { file_name: string }) => e.file_name)).toEqual(names);
      expect(after.data[ids.Signature!].map((e: { file_name: string }) => e.file_name)).toEqual([signature]);
      if (s === observed) {
        const unknown = await put(s, 16, listed.id, {
          ...body,
          [ids.Receipts!]: ['receipt_00000000-0000-4000-a000-000000000000.pdf'],
        });
        expect(unknown.status).toBe(422);
        expect(unknown.body.errors).toEqual({ [`${ids.Receipts!}.0`]: ['Invalid file.'] });
      }
    }
  });

  it('a listed file_url is taken back for files, and clears a signature, in observed (StoreFormSubmissionJob.php:397-409, 445-454)', async () => {
    const { observed } = await pair();
    const { ids, listed } = await claim(observed);
    const urls = listed.data[ids.Receipts!].map((e: { file_url: string }) => e.file_url);
    const body = {
      [ids.Name!]: 'Urls',
      [ids.Amount!]: 5,
      [ids.Receipts!]: urls,
      [ids.Signature!]: listed.data[ids.Signature!][0].file_url,
    };
    expect((await put(observed, 16, listed.id, body)).status).toBe(200);
    const after = (await list(observed, 16)).body.data.find((r: { id: number }) => r.id === listed.id);
    expect(after.data[ids.Receipts!].map((e: { file_name: string }) => e.file_name)).toEqual(
      listed.data[ids.Receipts!].map((e: { file_name: string }) => e.file_name),
    );
    expect(after.data[ids.Signature!]).toBeNull();
  });
});

describe('row 3: Laravel integer, numeric and boolean', () => {
  it('take "74", "5" and "1" in observed; refuse them in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const { ids, listed } = await claim(s);
      const body = { [ids.Name!]: 'Loose', [ids.Amount!]: '5', [ids.Urgent!]: '1', completion_time: '74' };
      const answer = await put(s, 16, listed.id, body);
      if (s === contract) {
        expect(answer.status).toBe(422);
        continue;
      }
      expect(answer.status).toBe(200);
      const after = (await list(s, 16)).body.data.find((r: { id: number }) => r.id === listed.id);
      expect(after.completion_time).toBe(74);
      expect([after.data[ids.Amount!], after.data[ids.Urgent!]]).toEqual(['5', '1']);
    }
  });
});

describe('rows 7, 8 and 9: the delivery', () => {
  it("is sent after the answer in observed, with Guzzle's User-Agent; before it, as forms-api-kit-sandbox, in contract", async () => {
    // A receiver that never answers: the delivery ends at the 1.5 s timeout.
    const { observed, contract } = await pair({ webhookTimeoutMs: 1500 });
    for (const s of [observed, contract]) {
      const rx = await receiver('hang');
      running.push(rx);
      const hook = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: s.tokens.all,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } },
      });
      const events = async () =>
        (
          await call(s.baseUrl, 'GET', `/open/forms/11/integrations/${hook.body.form_integration.id}/events`, {
            token: s.tokens.all,
          })
        ).body;
      const ids = await fieldIds(s, 11);
      expect(
        (
          await call(s.baseUrl, 'POST', '/forms/11/answer', {
            body: { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' },
          })
        ).status,
      ).toBe(200);
      // Contract answered once the delivery was recorded; observed while it is still under way.
      expect(await events()).toHaveLength(s === contract ? 1 : 0);
      await expect.poll(() => rx.deliveries.length).toBe(1);
      expect(rx.deliveries[0]!.headers['user-agent']).toBe(s === observed ? 'GuzzleHttp/7' : 'forms-api-kit-sandbox');
      await expect.poll(async () => (await events()).length, { timeout: 10_000 }).toBe(1);
    }
  });

  it("keeps the receiver's whole answer, keys re-sorted, in observed (the first 1 KiB in contract)", async () => {
    const { createServer } = await import('node:http');
    const answer = JSON.stringify({ zeta: 1, a: { yy: 1, b: 2 }, padding: 'x'.repeat(5000) });
    const server = createServer((_req, res) => res.writeHead(422, { 'content-type': 'application/json' }).end(answer));
    const listening = await listen(server);
    running.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const url = `${listening.url}/hook`;
    const { observed } = await pair();
    const created = await call(observed.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: observed.tokens.all,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: url } },
    });
    const ids = await fieldIds(observed, 11);
    await call(observed.baseUrl, 'POST', '/forms/11/answer', {
      body: { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' },
    });
    const events = () =>
      call(observed.baseUrl, 'GET', `/open/forms/11/integrations/${created.body.form_integration.id}/events`, {
        token: observed.tokens.all,
      });
    await expect.poll(async () => (await events()).body.length).toBe(1);
    const response = (await events()).body[0].data.response;
    expect(response).toEqual(JSON.parse(answer));
    expect(Object.keys(response)).toEqual(['a', 'zeta', 'padding']);
    expect(Object.keys(response.a)).toEqual(['b', 'yy']);
  });
});

describe('row 10: events', () => {
  it('are gone 14 days after they were recorded in observed (the clock moved by the test); kept in contract', async () => {
    let clock = Date.now();
    const { observed, contract } = await pair({ now: () => clock });
    const ids: Record<string, number> = {};
    for (const [name, s] of Object.entries({ observed, contract })) {
      const rx = await receiver(200);
      running.push(rx);
      ids[name] = (
        await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
          token: s.tokens.all,
          body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } },
        })
      ).body.form_integration.id;
      const f = await fieldIds(s, 11);
      await call(s.baseUrl, 'POST', '/forms/11/answer', { body: { [f.Name!]: 'Ada', [f.Email!]: 'ada@example.com' } });
      await expect.poll(() => rx.deliveries.length).toBe(1);
    }
    const count = async (s: SandboxHandle, id: number) =>
      (await call(s.baseUrl, 'GET', `/open/forms/11/integrations/${id}/events`, { token: s.tokens.all })).body.length;
    await expect.poll(() => count(observed, ids.observed!)).toBe(1);
    clock += 14 * 24 * 60 * 60 * 1000 - 60_000;
    expect(await count(observed, ids.observed!)).toBe(1);
    clock += 120_000;
    expect(await count(observed, ids.observed!)).toBe(0);
    expect(await count(contract, ids.contract!)).toBe(1);
  });
});

describe('row 11: ids in the path', () => {
  it('a slug, `16abc` and a non-numeric submission id are read like the service in observed; 404 in contract', async () => {
    const { observed, contract } = await pair();
    const { listed } = await claim(observed);
    const cases: Array<[string, number]> = [
      ['/open/forms/expense-claim-s1t2u3/submissions', 200],
      ['/open/forms/16.0/submissions', 200],
      ['/open/workspaces/1abc/forms', 200],
      ['/open/forms/11/integrations/0x/events', 404],
    ];
    for (const [path, observedStatus] of cases) {
      expect(
        (await call(observed.baseUrl, 'GET', path, { token: observed.tokens.all })).status,
        `observed ${path}`,
      ).toBe(observedStatus);
      expect(
        (await call(contract.baseUrl, 'GET', path, { token: contract.tokens.all })).status,
        `contract ${path}`,
      ).toBe(404);
    }
    expect((await put(contract, 16, `${listed.id}abc`, {})).status).toBe(404);
    // A valid body, so the submission lookup is reached (observed validates first): 500 on `5abc`.
    const ids = await fieldIds(observed, 16);
    const valid = { [ids.Name!]: 'X', [ids.Amount!]: 1 };
    expect((await put(observed, 16, `${listed.id}abc`, valid)).status).toBe(500);
    expect((await put(observed, 16, `${listed.id}abc`, valid)).body).toEqual({ message: 'Server Error' });
  });
});

describe('row 13: the signed file route', () => {
  it('shares the per-address limit of 100 a minute in observed; is never limited in contract', async () => {
    const { observed, contract } = await pair({ rateLimit: { limit: 3, windowMs: 60_000 } });
    for (const s of [observed, contract]) {
      const { ids, listed } = await claim(s);
      const url = listed.data[ids.Receipts!][0].file_url as string;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await rawRequest(s.baseUrl, 'GET', url.slice(s.baseUrl.length))).status);
      if (s === observed) expect(statuses).toEqual([302, 302, 302, 429, 429]);
      else expect(statuses).toEqual([200, 200, 200, 200, 200]);
    }
  });
});

describe('row 14: `logic: {}`', () => {
  it('is given back as [] in observed, {} read as no logic in contract', async () => {
    const { observed, contract } = await pair();
    const logicOf = async (s: SandboxHandle) =>
      (
        await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
          token: s.tokens.all,
          body: {
            integration_id: 'webhook',
            status: 'active',
            data: { webhook_url: 'https://hooks.example.com/x' },
            logic: {},
          },
        })
      ).body.form_integration.logic;
    expect(await logicOf(observed)).toEqual([]);
    expect(Array.isArray(await logicOf(observed))).toBe(true);
    expect(await logicOf(contract)).toEqual({});
  });
});

describe('row 15: a body that is not a JSON object', () => {
  it('is empty input in observed (required fields, or the unknown integration 500); a 422 of its own in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const ids = await fieldIds(s, 11);
      const listed = (await list(s, 11)).body.data[0];
      const send = (method: string, path: string, text: string) =>
        fetch(`${s.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${s.tokens.all}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: text,
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      for (const text of ['"text"', '[1, 2]', 'null', '{not json']) {
        const update = await send('PUT', `/open/forms/11/submissions/${listed.id}`, text);
        const integration = await send('POST', '/open/forms/11/integrations', text);
        if (s === observed) {
          expect(update.status, text).toBe(422);
          expect(Object.keys(update.body.errors).sort(), text).toEqual([ids.Name!, ids.Email!].sort());
          expect(integration, text).toEqual({ status: 500, body: { message: 'Server Error' } });
        } else {
          expect(update.body.errors, text).toEqual({ body: ['The request body must be a JSON object.'] });
          expect(integration.body.errors, text).toEqual({ body: ['The request body must be a JSON object.'] });
        }
      }
    }
  });
});
