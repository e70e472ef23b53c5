// The client's updateKeeping against both sandboxes over HTTP (issue 19 item 2): on form 16, whose
// submissions hold files and a signature, a one-field change leaves every other answer and the
// completion time as they were, and a second update sends the files back again without a loss.
// The plain update, beside it, replaces (observed) as the service does.
import { createFormsClient } from '@forms-api/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { sandbox } from './support.js';

const BEHAVIOURS = ['observed', 'contract'] as const;
const sandboxes: Partial<Record<(typeof BEHAVIOURS)[number], SandboxHandle>> = {};
beforeAll(async () => {
  for (const behaviour of BEHAVIOURS) sandboxes[behaviour] = await sandbox({ behaviour });
});
afterAll(() => Promise.all(Object.values(sandboxes).map((s) => s!.close())));

const client = (s: SandboxHandle) =>
  createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
/** A listed submission's answers as comparable values: file entries by name (their signed URLs change with time). */
const comparable = (data: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(data)
      .filter(([key]) => /^[0-9a-f-]{36}$/.test(key))
      .map(([key, value]) => [
        key,
        value && typeof value === 'object'
          ? Object.values(value).map((v) =>
              v && typeof v === 'object' && 'file_name' in v ? (v as { file_name: string }).file_name : v,
            )
          : value,
      ]),
  );

describe.each(BEHAVIOURS)('updateKeeping (%s sandbox)', (behaviour) => {
  it('changes one answer and keeps every other, files, signature and completion time included', async () => {
    const s = sandboxes[behaviour]!;
    const forms = client(s);
    const form = await forms.forms.get(16);
    const field = (name: string) => form.properties.find((p) => p.name === name)!.id;
    const [before] = (await forms.submissions.list(16, { perPage: 1, status: 'completed' })).data;
    expect(before!.data[field('Receipts')]).toHaveLength(2);
    expect(before!.data[field('Signature')]).toHaveLength(1);
    expect(before!.completion_time).not.toBeNull();

    await forms.submissions.updateKeeping({ form: 16, submission: before!.id, changes: { [field('Amount')]: 999 } });
    const [after] = (await forms.submissions.list(16, { perPage: 1, status: 'completed' })).data;
    expect(after!.id).toBe(before!.id);
    expect(comparable(after!.data)).toEqual({ ...comparable(before!.data), [field('Amount')]: 999 });
    expect(after!.completion_time).toBe(before!.completion_time);

    // Again, with what it read back: nothing is lost the second time either; a given completion time is sent.
    await forms.submissions.updateKeeping(
      { form: 16, submission: before!.id, changes: { [field('Name')]: 'Renamed' } },
      { completionTime: 7 },
    );
    const [again] = (await forms.submissions.list(16, { perPage: 1, status: 'completed' })).data;
    expect(comparable(again!.data)).toEqual({
      ...comparable(before!.data),
      [field('Amount')]: 999,
      [field('Name')]: 'Renamed',
    });
    expect(again!.completion_time).toBe(7);
  });

  it('refuses a change keyed by something that is not a field id, before sending anything', async () => {
    const forms = client(sandboxes[behaviour]!);
    const [one] = (await forms.submissions.list(16, { perPage: 1 })).data;
    await expect(
      forms.submissions.updateKeeping({ form: 16, submission: one!.id, changes: { Amount: 1 } }),
    ).rejects.toMatchObject({
      kind: 'invalid_option',
      option: 'changes',
    });
  });

  it('says not_found for a submission the form does not have', async () => {
    const forms = client(sandboxes[behaviour]!);
    await expect(forms.submissions.updateKeeping({ form: 16, submission: 11001, changes: {} })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});

describe('the plain update beside it (observed, as the service)', () => {
  it('replaces: answers not sent are gone and completion_time is reset', async () => {
    const forms = client(sandboxes.observed!);
    const form = await forms.forms.get(16);
    const field = (name: string) => form.properties.find((p) => p.name === name)!.id;
    const [, second] = (await forms.submissions.list(16, { perPage: 2, status: 'completed' })).data;
    await forms.submissions.update({
      form: 16,
      submission: second!.id,
      answers: { [field('Name')]: 'Only', [field('Amount')]: 1 },
    });
    const after = (await forms.submissions.list(16, { perPage: 2, status: 'completed' })).data.find(
      (x) => x.id === second!.id,
    )!;
    expect(Object.keys(comparable(after.data)).sort()).toEqual([field('Name'), field('Amount')].sort());
    expect(after.completion_time).toBeNull();
  });
});
