// Issue 30 #18: an error status the drift ledger knows the service answers in place of another
// (a 422 of an update that hides a missing `forms-write` or an unknown submission: ledger
// update-submission-validates-before-authorising) says so, in the ledger's words: the messages
// come from STATUS_DRIFT, generated from spec/drift.yaml, not from a copy kept here.
import { STATUS_DRIFT, type OperationId } from '@forms-api/types';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, type FormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

/** The service answers every request with `status`. */
async function answering(status: number): Promise<FormsClient> {
  server = await startServer((_req, res) =>
    json(res, status, { message: 'The given data was invalid.', errors: { name: ['The name field is required.'] } }),
  );
  return createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
}

const input = { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://e.com' } } as const;
// The helper of each operation the ledger has error-status drift for: a new one needs a line here.
const CALLS: Partial<Record<OperationId, (client: FormsClient) => Promise<unknown>>> = {
  updateFormSubmission: (c) => c.submissions.update({ form: 42, submission: 7, answers: { name: 'Jane' } }),
  createFormIntegration: (c) => c.integrations.create(42, input),
  updateFormIntegration: (c) => c.integrations.update({ form: 42, integration: 3, input }),
};

const messageOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: Error) => e.message,
  );

it("a 422 of an update names the ledger's other causes: a token without forms-write, a submission that does not exist", async () => {
  const client = await answering(422);
  const message = await messageOf(CALLS.updateFormSubmission!(client));
  expect(message).toContain('the service rejected the input (name: The name field is required.)');
  expect(message).toContain('`update-submission-validates-before-authorising`');
  // The ledger's advice, whole: both causes a 403 or a 404 would have named.
  expect(message).toContain('Do not read a 422 or a 404 as proof that the token may write');
  expect(message).toContain('A 403 only comes after a valid body for an existing submission.');
});

it('every error status of the ledger carries its advice, on the operation it was seen on, and only there', async () => {
  const statuses = [...new Set(STATUS_DRIFT.flatMap((drift) => drift.received))];
  expect(statuses.length).toBeGreaterThan(0);
  for (const status of statuses) {
    const client = await answering(status);
    for (const [operationId, call] of Object.entries(CALLS)) {
      const message = await messageOf(call(client));
      // An entry may name several operations: its advice is there when any of its rows applies.
      for (const advice of new Set(STATUS_DRIFT.map((drift) => drift.advice))) {
        const applies = STATUS_DRIFT.some(
          (drift) => drift.advice === advice && drift.operationId === operationId && drift.received.includes(status),
        );
        expect(message.includes(advice), `${operationId} ${status}: ${advice}`).toBe(applies);
      }
    }
    await server.close();
  }
  for (const drift of STATUS_DRIFT) expect(CALLS[drift.operationId], drift.operationId).toBeDefined();
});

it('an error the ledger knows no drift for says nothing of it', async () => {
  const client = await answering(422);
  const message = await messageOf(client.answers.submit(42, { name: 'Jane' } as never));
  expect(message).not.toContain('Known drift');
  await server.close();
  const notFound = await answering(404);
  expect(await messageOf(CALLS.updateFormSubmission!(notFound))).not.toContain('Known drift');
});
