// Issue 28: the submission list is newest first with page-number pagination, so a walk meets a list
// that shifts under it. Submissions answered during the walk push the rest down a page (the next
// page repeats what was yielded); submissions deleted behind the walk pull the rest up (the next
// page starts past one that was never yielded). `iterate()` yields each submission once, and every
// submission that was there before the walk and is still there after it.
import { createFormsClient, type FormsClient } from '@forms-api/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { sandbox } from './support.js';

const FORM = 11;
const PER_PAGE = 20;
let s: SandboxHandle;
let client: FormsClient;
let answer: () => Promise<unknown>;

beforeAll(async () => {
  s = await sandbox({ behaviour: 'observed' });
  client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
  const form = await client.forms.get(FORM);
  const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
  answer = () => client.answers.submit(form.slug, { [field('Name')]: 'Mid-walk', [field('Email')]: 'mid@example.com' });
});
afterAll(() => s?.close());

/** Every completed submission's id, read while nothing changes. */
async function snapshot(): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of client.submissions.pages(FORM, { status: 'completed' }))
    ids.push(...page.data.map((x) => x.id));
  return ids;
}

describe('submissions.iterate() over a list that shifts while it is walked', () => {
  it('yields no submission twice when submissions arrive between pages', async () => {
    const before = await snapshot();
    const yielded: number[] = [];
    for await (const submission of client.submissions.iterate(FORM, { status: 'completed', perPage: PER_PAGE })) {
      // The next page is requested after this one's last item: answers sent now land before it.
      if (yielded.length % PER_PAGE === 0) for (let i = 0; i < 3; i++) await answer();
      yielded.push(submission.id);
    }
    expect(yielded.length - new Set(yielded).size).toBe(0);
    expect(before.filter((id) => !yielded.includes(id))).toEqual([]);
  });

  it('misses no submission when submissions behind the walk are deleted between pages', async () => {
    const before = await snapshot();
    const deleted: number[] = [];
    const yielded: number[] = [];
    for await (const submission of client.submissions.iterate(FORM, { status: 'completed', perPage: PER_PAGE })) {
      yielded.push(submission.id);
      // Three submissions of the page in hand, already yielded or about to be, are deleted.
      if (yielded.length % PER_PAGE === 1 && deleted.length < 9) {
        const page = before.slice(yielded.length - 1, yielded.length + 2);
        for (const id of page) await client.operations.deleteFormSubmission({ path: { id: FORM, submission_id: id } });
        deleted.push(...page);
      }
    }
    expect(deleted).toHaveLength(9);
    expect(yielded.length - new Set(yielded).size).toBe(0);
    expect(before.filter((id) => !yielded.includes(id) && !deleted.includes(id))).toEqual([]);
  });
});

describe('forms.iterate() over a list that shifts while it is walked', () => {
  it('misses no form when a form already walked past is deleted', async () => {
    const workspace = s.workspaces[0]!.id;
    const before: number[] = [];
    for await (const page of client.forms.pages(workspace)) before.push(...page.data.map((f) => f.id));
    expect(before.length).toBeGreaterThan(2);
    const yielded: number[] = [];
    for await (const form of client.forms.iterate(workspace, { perPage: 1 })) {
      yielded.push(form.id);
      if (yielded.length === 1) await client.operations.deleteForm({ path: { form: form.id } });
    }
    expect(yielded.length).toBe(new Set(yielded).size);
    expect(before.filter((id) => !yielded.includes(id))).toEqual([]);
  });
});
