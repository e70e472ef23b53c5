// The client's forms.updateKeeping against both sandboxes over HTTP: the service's form update
// replaces the whole form (a title alone is a 422, fields left out are removed), so the helper
// reads the form and sends it back whole with the change: a new title keeps the fields, the
// styling and the settings, and a change made from the form as read adds a field to the others.
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

const NAME = { id: '3700d380-197b-47b9-a008-3acc31bbd506', name: 'Name', type: 'text', required: true };
const EMAIL = { id: 'a1f4c8e2-5b7d-4e09-9c3a-2f6e8d1b4a70', name: 'Email', type: 'email', required: false };
const PHONE = { id: '0b6f3f5e-2d0c-4c55-9a4e-5b8d7e1f2a93', name: 'Phone', type: 'phone_number', required: false };

describe.each(BEHAVIOURS)('forms.updateKeeping (%s sandbox)', (behaviour) => {
  const setUp = async () => {
    const s = sandboxes[behaviour]!;
    const client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
    const { form } = await client.operations.createForm({
      body: {
        workspace_id: 1,
        title: 'Contact',
        visibility: 'public',
        language: 'fr',
        tags: ['support', 'web'],
        theme: 'notion',
        presentation_style: 'focused',
        width: 'full',
        size: 'lg',
        border_radius: 'full',
        dark_mode: 'dark',
        color: '#10B981',
        uppercase_labels: true,
        no_branding: false,
        transparent_background: true,
        closes_at: '2030-01-01T00:00:00+00:00',
        max_submissions_count: 500,
        properties: [NAME, EMAIL],
      },
    });
    return { client, id: form.id };
  };
  /** What an update must keep: everything but the title, the times and what they make. */
  const kept = ({ title: _t, updated_at: _u, last_edited_human: _l, ...rest }: Record<string, unknown>) => rest;

  it('a new title keeps the fields, the styling, the tags and the settings', async () => {
    const { client, id } = await setUp();
    const before = (await client.forms.get(id)) as Record<string, unknown>;
    // The replacing update itself refuses a title alone: what the helper exists for.
    await expect(
      client.operations.updateForm({ path: { form: id }, body: { title: 'Renamed' } as never }),
    ).rejects.toMatchObject({
      status: 422,
    });
    const saved = await client.forms.updateKeeping(id, { title: 'Contact us' });
    expect(saved.form.title).toBe('Contact us');
    const after = (await client.forms.get(id)) as Record<string, unknown>;
    expect(after.title).toBe('Contact us');
    expect(kept(after)).toEqual(kept(before));
    expect(after).toMatchObject({
      properties: [NAME, EMAIL],
      theme: 'notion',
      tags: ['support', 'web'],
      max_submissions_count: 500,
    });
  });

  it('a change made from the form as read adds a field and keeps the others', async () => {
    const { client, id } = await setUp();
    await client.forms.updateKeeping(id, (form) => ({ properties: [...form.properties, PHONE] }));
    const after = await client.forms.get(id);
    expect(after.properties).toEqual([NAME, EMAIL, PHONE]);
    expect(after).toMatchObject({ title: 'Contact', language: 'fr', visibility: 'public' });
  });

  it("renames a seeded form (the quick start's form 11) and keeps its fields", async () => {
    const s = sandboxes[behaviour]!;
    const client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
    const before = await client.forms.get(11);
    await client.forms.updateKeeping(11, { title: `${before.title} (renamed)` });
    const after = await client.forms.get(11);
    expect(after.title).toBe(`${before.title} (renamed)`);
    expect(after.properties).toEqual(before.properties);
  });

  it('changes that are not an object are refused before anything is sent', async () => {
    const { client, id } = await setUp();
    await expect(client.forms.updateKeeping(id, null as never)).rejects.toMatchObject({
      kind: 'invalid_option',
      option: 'changes',
    });
    await expect(client.forms.updateKeeping(id, () => 'Renamed' as never)).rejects.toMatchObject({
      kind: 'invalid_option',
      option: 'changes',
    });
    expect((await client.forms.get(id)).title).toBe('Contact');
  });
});
