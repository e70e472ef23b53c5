// Issue 29, finding 8: the sandbox parsed any body as JSON, so a page on another site could POST a
// `text/plain` answer (no preflight needed) and have it stored and delivered as a webhook. The
// service reads JSON only from a body whose Content-Type says JSON: the contract behaviour refuses
// any other with 422, `observed` reads it as empty input, as the service does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fieldIds, rawRequest, receiver, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
let rx: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
  sbs = await sideBySide();
  rx = await receiver(200);
  for (const sb of [sbs.contract, sbs.observed])
    await call(sb.baseUrl, 'POST', '/open/forms/16/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } },
    });
});
afterAll(async () => {
  await sbs.close();
  await rx.close();
});

const totalOf = async (which: 'contract' | 'observed', formId: number) =>
  (
    await call(sbs[which].baseUrl, 'GET', `/open/forms/${formId}/submissions?per_page=1`, {
      token: sbs[which].tokens.read,
    })
  ).body.meta.total as number;

describe('a cross-site text/plain answer', () => {
  it('is refused by the contract behaviour, stored with nothing of its text by observed', async () => {
    const ids = await fieldIds(sbs.contract, 16);
    const text = JSON.stringify({ [ids.Name!]: 'planted by another site' });
    const before = { contract: await totalOf('contract', 16), observed: await totalOf('observed', 16) };
    const sent = {
      contract: await rawRequest(sbs.contract.baseUrl, 'POST', '/forms/16/answer', {
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: text,
      }),
      observed: await rawRequest(sbs.observed.baseUrl, 'POST', '/forms/16/answer', {
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: text,
      }),
    };
    expect(sent.contract.status).toBe(422);
    expect(JSON.parse(sent.contract.text).errors.body[0]).toBe(
      'The request body must be JSON sent with Content-Type: application/json (got "text/plain;charset=UTF-8").',
    );
    expect(await totalOf('contract', 16)).toBe(before.contract);
    // Form 16's fields are all optional: the service saves the empty input it read.
    expect(sent.observed.status).toBe(200);
    expect(await totalOf('observed', 16)).toBe(before.observed + 1);
    const listed = await call(sbs.observed.baseUrl, 'GET', '/open/forms/16/submissions?per_page=1', {
      token: sbs.observed.tokens.read,
    });
    expect(JSON.stringify(listed.body.data[0])).not.toContain('planted');
    // No delivery ever carried the planted text (observed queues its delivery: wait for it).
    await expect.poll(() => rx.deliveries.length).toBe(1);
    expect(rx.deliveries.some((d) => d.raw.toString().includes('planted'))).toBe(false);
  });

  it('is read as empty input by observed, so required fields are reported (form 11)', async () => {
    const ids = await fieldIds(sbs.observed, 11);
    const sent = await rawRequest(sbs.observed.baseUrl, 'POST', '/forms/11/answer', {
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' }),
    });
    expect(sent.status).toBe(422);
    expect(Object.keys(JSON.parse(sent.text).errors)).toEqual(expect.arrayContaining([ids.Name, ids.Email]));
  });
});

describe('the write endpoints', () => {
  it('refuse a body without a JSON content type in the contract behaviour, and create nothing', async () => {
    const sb = sbs.contract;
    const listedBefore = (await call(sb.baseUrl, 'GET', '/open/forms/11/integrations', { token: sb.tokens.all })).body;
    const headers = { authorization: `Bearer ${sb.tokens.all}` };
    const integration = await rawRequest(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } }),
    });
    expect(integration.status).toBe(422);
    expect(JSON.parse(integration.text).errors.body[0]).toContain('Content-Type: application/json');
    expect((await call(sb.baseUrl, 'GET', '/open/forms/11/integrations', { token: sb.tokens.all })).body).toEqual(
      listedBefore,
    );
    const listed = await call(sb.baseUrl, 'GET', '/open/forms/16/submissions?per_page=1', { token: sb.tokens.all });
    const update = await rawRequest(sb.baseUrl, 'PUT', `/open/forms/16/submissions/${listed.body.data[0].id}`, {
      headers,
      body: '{}',
    });
    expect(update.status).toBe(422);
    expect(JSON.parse(update.text).errors.body[0]).toContain('(got no Content-Type)');
  });

  it('accept any content type that declares JSON, as the framework does', async () => {
    const ids = await fieldIds(sbs.contract, 16);
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json'])
      expect(
        (
          await rawRequest(sbs.contract.baseUrl, 'POST', '/forms/16/answer', {
            headers: { 'content-type': type },
            body: JSON.stringify({ [ids.Name!]: 'Ada' }),
          })
        ).status,
        type,
      ).toBe(200);
  });
});
