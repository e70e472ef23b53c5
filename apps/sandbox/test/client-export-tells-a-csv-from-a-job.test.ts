// The client's submissions.export against both sandboxes over HTTP: the service answers a CSV for
// at most 1,000 submissions and a background job for more, on one operation with two media types;
// the helper tells them apart, typed, with the CSV's text and file name, or the job a token
// cannot follow.
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

describe.each(BEHAVIOURS)('submissions.export (%s sandbox)', (behaviour) => {
  const client = () => {
    const s = sandboxes[behaviour]!;
    return createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });
  };

  it('gives the CSV and its file name for at most 1,000 submissions', async () => {
    const forms = client();
    const [newest] = (await forms.submissions.list(11, { perPage: 1 })).data;
    const answer = await forms.submissions.export(11, { columns: { created_at: true }, submissionIds: [newest!.id] });
    if (answer.kind !== 'csv') throw new Error(`expected a CSV, got ${JSON.stringify(answer)}`);
    expect(answer.fileName).toMatch(/-submission-data\.csv$/);
    expect(answer.csv.trim().split(/\r?\n/)).toHaveLength(2); // the header row and the one submission
  });

  it('gives the job for more than 1,000, which a token cannot follow', async () => {
    const forms = client();
    const [newest] = (await forms.submissions.list(11, { perPage: 1 })).data;
    // The service counts the ids as sent: 1,001 of them start a job.
    const answer = await forms.submissions.export(11, {
      columns: { created_at: true },
      submissionIds: Array.from({ length: 1_001 }, () => newest!.id),
    });
    if (answer.kind !== 'job') throw new Error(`expected a job, got a ${answer.kind}`);
    expect(answer.job.job_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
