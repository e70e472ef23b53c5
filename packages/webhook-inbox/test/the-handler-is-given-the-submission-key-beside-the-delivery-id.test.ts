// The service sends `submission.created` again for the same submission after every update through
// the API (ledger: update-submission-emits-webhook), with the current answers: other bytes, so
// another delivery and another delivery id. The handler must be given the key of the submission
// itself, the same across those deliveries, to make its writes idempotent per submission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { until } from '@forms-api/test-support';
import { submissionKeyFor, type InboxDelivery } from '../src/index.js';
import { deliveryBody, postDelivery, SECRET } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

let world: InboxWorld;
const runs: InboxDelivery[] = [];

beforeAll(async () => {
  world = await startInboxWorld({ queue: 'keys', worker: { handler: (delivery) => void runs.push(delivery) } });
});

afterAll(() => world?.close());

const signed = async (body: string) => ({ body, signature: await sign(SECRET, body) });

describe('the submission key', () => {
  it('is the same for the first delivery and the re-send after an update, while the delivery ids differ', async () => {
    const created = deliveryBody(4242);
    const updated = created.replace('"value":"Ada 4242 é/"', '"value":"Ada Lovelace"');
    expect(updated).not.toBe(created);
    const other = deliveryBody(4243);
    for (const body of [created, updated, other])
      expect((await postDelivery(world.url, await signed(body))).status).toBe(202);
    await until('three runs', () => runs.length === 3);

    const bySubmission = (id: number) => runs.filter((run) => run.payload!.submission_id === id);
    const [first, resent] = bySubmission(4242);
    expect(first!.id).not.toBe(resent!.id);
    expect(first!.submissionKey).toBe('11:4242');
    expect(resent!.submissionKey).toBe('11:4242');
    expect(bySubmission(4243)[0]!.submissionKey).toBe('11:4243');
  });

  it('is null only when the payload lacks an id', () => {
    expect(submissionKeyFor({ form_id: 11, submission_id: 7 })).toBe('11:7');
    expect(submissionKeyFor({ form_id: 11 })).toBeNull();
    expect(submissionKeyFor({ submission_id: 7 })).toBeNull();
    expect(submissionKeyFor({ form_id: 11, submission_id: '' })).toBeNull();
  });
});
