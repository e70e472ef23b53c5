// A verified delivery's body is parsed once on its way into the queue: webhook-verify decodes the
// payload, and the adapters hand the inbox its submission key with the bytes, so storing and
// claiming it reads no JSON again (a 1 MiB body is parsed once, not twice, in the 5 s the
// service waits). A delivery built by hand without the key is still claimed, from its bytes.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { inboxHandler } from '../src/adapters/fetch.js';
import { inboxQueuePrefix } from '../src/queue-keys.js';
import { deliveryBody, postDelivery, SECRET } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';
import { sign } from '@forms-api/webhook-verify';

const QUEUE = 'parsed-once';
let world: InboxWorld;

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
});

afterAll(async () => {
  await world?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts JSON.parse calls given exactly `body` while `run` runs. */
async function parsesOf(body: string, run: () => Promise<unknown>): Promise<number> {
  const parse = vi.spyOn(JSON, 'parse');
  await run();
  const count = parse.mock.calls.filter(([text]) => text === body).length;
  parse.mockRestore();
  return count;
}

const claimOf = (submissionId: number) => world.raw.get(`${inboxQueuePrefix(QUEUE)}:submission:11:${submissionId}`);

it('parses a body once through the Node receiver, and claims its submission', async () => {
  const body = deliveryBody(8001);
  const signature = await sign(SECRET, body);
  const parses = await parsesOf(body, async () => {
    expect((await postDelivery(world.url, { body, signature })).status).toBe(202);
  });
  expect(parses).toBe(1);
  expect(await claimOf(8001)).toMatch(/^wh-/);
});

it('parses a body once through the Fetch handler, and claims its submission', async () => {
  const body = deliveryBody(8002);
  const signature = await sign(SECRET, body);
  const handle = inboxHandler(world.inbox);
  const parses = await parsesOf(body, async () => {
    const response = await handle(
      new Request('http://127.0.0.1/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        body,
      }),
    );
    expect(response.status).toBe(202);
  });
  expect(parses).toBe(1);
  expect(await claimOf(8002)).toMatch(/^wh-/);
});

it('claims from the bytes a delivery built by hand without its key', async () => {
  const body = deliveryBody(8003);
  const signature = await sign(SECRET, body);
  await world.inbox.enqueue({ rawBody: new TextEncoder().encode(body), signature, headers: {} });
  expect(await claimOf(8003)).toMatch(/^wh-/);
});
