// Issue 28: the list keys a submission's answers by field id alone, the webhook joins each field's
// name and type, so a receiver that stores both kept two shapes in one column. The client's
// normaliser turns the signed webhook of a submission and the same submission as listed into one
// shape: same key, ids, answer keys, field names and types, and file entries as files.
import { createFormsClient } from '@forms-api/client';
import {
  formFields,
  normaliseListedSubmission,
  normaliseWebhookSubmission,
  unknownFieldIds,
} from '@forms-api/client/submissions';
import { verify } from '@forms-api/webhook-verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, receiver, sandbox } from './support.js';

const SECRET = 'whsec_normalise_test_secret';
let s: SandboxHandle;
beforeAll(async () => {
  s = await sandbox({ behaviour: 'observed' });
});
afterAll(() => s?.close());

const names = (files: readonly { file_name: string }[] | null) => files?.map((f) => f.file_name) ?? null;

describe('one submission, by webhook and by list (observed sandbox)', () => {
  it('normalises to the same key, ids, fields and files', async () => {
    const client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
    const hook = await receiver();
    try {
      const created = await call(s.baseUrl, 'POST', '/open/forms/16/integrations', {
        token: s.tokens.all,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: hook.url, webhook_secret: SECRET } },
      });
      expect(created.status).toBe(200);
      // Form 16's submissions hold files and a signature; an update keeps them and, as the service
      // does, sends the webhook again.
      const form = await client.forms.get(16);
      const fields = formFields(form);
      const field = (name: string) => form.properties.find((p) => p.name === name)!.id;
      const [listedBefore] = (await client.submissions.list(16, { perPage: 1, status: 'completed' })).data;
      await client.submissions.updateKeeping({
        form: 16,
        submission: listedBefore!.id,
        changes: { [field('Amount')]: 42 },
      });
      await expect.poll(() => hook.deliveries.length).toBe(1);
      const delivery = hook.deliveries[0]!;
      expect(await verify(SECRET, delivery.raw, String(delivery.headers['x-webhook-signature']))).toBe(true);
      const fromWebhook = normaliseWebhookSubmission(JSON.parse(delivery.raw.toString('utf8')));
      const [listed] = (await client.submissions.list(16, { perPage: 1, status: 'completed' })).data;
      const fromList = normaliseListedSubmission(listed!, fields);

      expect(unknownFieldIds(listed!, fields)).toEqual([]);
      expect(fromWebhook.key).toBe(`16:${listedBefore!.id}`);
      expect(fromList.key).toBe(fromWebhook.key);
      expect(fromList.id).toBe(fromWebhook.id);
      expect(fromList.publicId).toMatch(/^[0-9a-f-]{36}$/);
      expect([fromWebhook.origin, fromList.origin]).toEqual(['webhook', 'list']);
      expect([fromWebhook.values, fromList.values]).toEqual(['formatted', 'stored']);
      expect(fromList.createdAt).toBeInstanceOf(Date);
      expect(Object.keys(fromList.answers).sort()).toEqual(Object.keys(fromWebhook.answers).sort());
      for (const [fieldId, answer] of Object.entries(fromList.answers)) {
        const other = fromWebhook.answers[fieldId]!;
        expect({ name: answer.name, type: answer.type }).toEqual({ name: other.name, type: other.type });
        expect(answer.name).toBe(fields.get(fieldId)!.name);
        expect(names(answer.files)).toEqual(names(other.files));
      }
      expect(names(fromList.answers[field('Receipts')]!.files)).toHaveLength(2);
      expect(fromList.answers[field('Amount')]!.value).toBe(42);
    } finally {
      await hook.close();
    }
  });
});

describe('what cannot be normalised is refused, never guessed', () => {
  it('names the missing or malformed part', () => {
    const listed = {
      id: 7,
      form_id: 3,
      completion_time: null,
      data: { status: 'completed', id: 7, created_at: 'yesterday' },
    };
    expect(() => normaliseListedSubmission(listed as never, new Map())).toThrow(/created_at.*YYYY-MM-DD HH:MM:SS/);
    expect(() => normaliseListedSubmission({ ...listed, id: '7' } as never, new Map())).toThrow(/submission\.id/);
    const byNameOnly = { form_id: 3, form_title: 'T', submission_id: 9, submission: { Name: 'Ada' } };
    expect(() => normaliseWebhookSubmission(byNameOnly)).toThrow(/payload\.data.*field name only/);
    // A field the form no longer has keeps its answer, with no name to join.
    const kept = normaliseListedSubmission(
      { ...listed, data: { ...listed.data, created_at: '2026-11-28 10:00:00', gone: 'x' } } as never,
      new Map(),
    );
    expect(kept.answers.gone).toEqual({ name: null, type: null, value: 'x', files: null });
    expect(kept.createdAt!.toISOString()).toBe('2026-11-28T10:00:00.000Z');
  });
});
