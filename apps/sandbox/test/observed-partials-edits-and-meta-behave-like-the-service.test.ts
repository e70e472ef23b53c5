// The public answer endpoint, observed beside contract (audit row 4 and 6, ledger D2, D3, D4):
// partials only where the form and the plan allow them, an empty partial refused, the first
// submission reported, no webhook for a partial and one on its completion, a public edit sending
// submission.created again for the same submission, and meta (attribution, address) kept and shown.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed, type SandboxHandle, type SandboxOptions } from '../src/index.js';
import { call, fieldIds, receiver, sandbox } from './support.js';

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
async function hooked(s: SandboxHandle, formId: number) {
  const rx = await receiver(200);
  running.push(rx);
  const created = await call(s.baseUrl, 'POST', `/open/forms/${formId}/integrations`, {
    token: s.tokens.all,
    body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } },
  });
  expect(created.status).toBe(200);
  return rx;
}
const answer = (s: SandboxHandle, formId: number, body: Record<string, unknown>) =>
  call(s.baseUrl, 'POST', `/forms/${formId}/answer`, { body });
const all = async (s: SandboxHandle, formId: number) =>
  (await call(s.baseUrl, 'GET', `/open/forms/${formId}/submissions?per_page=100`, { token: s.tokens.all })).body;
const payloads = (rx: Awaited<ReturnType<typeof hooked>>) =>
  rx.deliveries.map((d) => JSON.parse(d.raw.toString('utf8')));

describe('row 4: is_partial', () => {
  it('is a validated completed submission with a webhook on a form without partials in observed; a partial in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const rx = await hooked(s, 12);
      const ids = await fieldIds(s, 12);
      const missing = await answer(s, 12, { [ids.Age!]: 30, is_partial: true });
      expect(missing.status).toBe(s === observed ? 422 : 200);
      const sent = await answer(s, 12, { [ids['Full name']!]: 'Ada', is_partial: true });
      expect(sent.status).toBe(200);
      if (s === observed) {
        expect(sent.body).toMatchObject({
          type: 'success',
          message: 'Form submission saved.',
          is_first_submission: false,
        });
        await expect.poll(() => rx.deliveries.length).toBe(1);
      } else {
        expect(sent.body.message).toBe('Partial submission saved');
        // The contract announces every submission created, partial ones included (both answers here).
        expect(rx.deliveries).toHaveLength(2);
      }
    }
  });

  it('an empty partial is 422 {type: error} in observed; saved in contract', async () => {
    const { observed, contract } = await pair();
    const empty = await answer(observed, 11, { is_partial: true });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      type: 'error',
      message: 'At least one field must have a value for partial submissions.',
    });
    expect((await answer(contract, 11, { is_partial: true })).status).toBe(200);
  });

  it("is_first_submission is true for the form's first completed submission in observed; always false in contract", async () => {
    const { observed, contract } = await pair({ seed: defaultSeed({ submissionsPerForm: 0 }) });
    for (const s of [observed, contract]) {
      const ids = await fieldIds(s, 11);
      const firsts = [];
      for (const n of [1, 2])
        firsts.push(
          (await answer(s, 11, { [ids.Name!]: `Ada ${n}`, [ids.Email!]: 'ada@example.com' })).body.is_first_submission,
        );
      expect(firsts).toEqual(s === observed ? [true, false] : [false, false]);
    }
  });
});

describe('D2: a partial, then its completion', () => {
  it('sends nothing for the partial and submission.created on completion with the same id in observed; a second submission in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const rx = await hooked(s, 11);
      const ids = await fieldIds(s, 11);
      const before = (await all(s, 11)).meta.total;
      const partial = await answer(s, 11, { [ids.Name!]: 'Ada', is_partial: true });
      expect(partial.body.message).toBe('Partial submission saved');
      const hash = partial.body.submission_hash;
      const completed = await answer(s, 11, {
        [ids.Name!]: 'Ada',
        [ids.Email!]: 'ada@example.com',
        submission_hash: hash,
      });
      expect(completed.status).toBe(200);
      // Contract: the partial is a submission created, announced like any other; then the completion, a new one.
      await expect.poll(() => rx.deliveries.length).toBe(s === observed ? 1 : 2);
      const listed = await all(s, 11);
      if (s === observed) {
        expect(completed.body.submission_id).toBe(hash);
        expect(listed.meta.total).toBe(before + 1);
        const row = listed.data.find((r: { submission_id: string }) => r.submission_id === hash);
        expect(row.data.status).toBe('completed');
        expect(payloads(rx)[0].submission_id).toBe(row.id);
      } else {
        expect(listed.meta.total).toBe(before + 2);
      }
    }
  });

  it('tracking_parameters with a name the service does not list is 422 in observed (array:utm_source,…)', async () => {
    const { observed } = await pair();
    const ids = await fieldIds(observed, 16);
    const refused = await answer(observed, 16, {
      [ids.Name!]: 'Ada',
      [ids.Amount!]: 10,
      tracking_parameters: { utm_source: 'x', unknown: 'x' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ tracking_parameters: ['The tracking parameters field must be an array.'] });
  });

  it('an identifier that is not a UUID, or unknown, is 404 in observed', async () => {
    const { observed } = await pair();
    const ids = await fieldIds(observed, 11);
    for (const submission_hash of ['5', '00000000-0000-4000-a000-000000000000']) {
      const refused = await answer(observed, 11, {
        [ids.Name!]: 'Ada',
        [ids.Email!]: 'ada@example.com',
        submission_hash,
      });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe('Submission not found');
    }
  });
});

describe('D1: an answer with no value', () => {
  it('sends "submission":[] and "data":[] in observed; {} in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const rx = await hooked(s, 16);
      expect((await answer(s, 16, { completion_time: 3 })).status).toBe(200);
      await expect.poll(() => rx.deliveries.length).toBe(1);
      const raw = rx.deliveries[0]!.raw.toString('utf8');
      if (s === observed) expect(raw).toContain('"submission":[],"data":[]');
      else expect(raw).toContain('"submission":{},"data":{}');
    }
  });
});

describe('D3: a public edit of an editable form', () => {
  it('sends submission.created again for the same submission in observed; a new submission in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const rx = await hooked(s, 12);
      const ids = await fieldIds(s, 12);
      const first = await answer(s, 12, { [ids['Full name']!]: 'Ada' });
      const edited = await answer(s, 12, {
        [ids['Full name']!]: 'Ada Lovelace',
        submission_id: first.body.submission_id,
      });
      expect(edited.status).toBe(200);
      await expect.poll(() => rx.deliveries.length).toBe(2);
      const [a, b] = payloads(rx);
      if (s === observed) {
        expect(b.submission_id).toBe(a.submission_id);
        expect(b.submission['Full name']).toBe('Ada Lovelace');
        // The form is editable on a Pro plan: the payload carries the respondent's edit link.
        expect(a.edit_link).toBe(
          `https://forms.example.com/forms/customer-survey-d4e5f6?submission_id=${first.body.submission_id}`,
        );
      } else {
        expect(b.submission_id).not.toBe(a.submission_id);
        expect(a).not.toHaveProperty('edit_link');
      }
    }
  });
});

describe('D4 and row 6: meta', () => {
  it('attribution and the address are kept and shown in observed (form 16 tracks addresses); never in contract', async () => {
    const { observed, contract } = await pair();
    for (const s of [observed, contract]) {
      const rx = await hooked(s, 16);
      const ids = await fieldIds(s, 16);
      const sent = await answer(s, 16, {
        [ids.Name!]: 'Ada',
        [ids.Amount!]: 10,
        tracking_parameters: { utm_source: 'newsletter', utm_medium: ' ' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      await expect.poll(() => rx.deliveries.length).toBe(1);
      const row = (await all(s, 16)).data.find((r: { data: Record<string, unknown> }) => r.data[ids.Name!] === 'Ada');
      const [payload] = payloads(rx);
      if (s === observed) {
        expect(row.meta).toEqual({ attribution: { utm_source: 'newsletter' } });
        expect(Object.keys(row).slice(-2)).toEqual(['submission_id', 'meta']);
        expect(row.data.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
        expect(payload.meta).toEqual({ attribution: { utm_source: 'newsletter' } });
        // Seeded submissions have no meta: no ip_address, no meta.
        const seeded = (await all(s, 16)).data.find((r: { id: number }) => r.id === 16001);
        expect(seeded.data).not.toHaveProperty('ip_address');
        expect(seeded).not.toHaveProperty('meta');
      } else {
        expect(row).not.toHaveProperty('meta');
        expect(row.data).not.toHaveProperty('ip_address');
        expect(payload).not.toHaveProperty('meta');
      }
    }
  });
});
