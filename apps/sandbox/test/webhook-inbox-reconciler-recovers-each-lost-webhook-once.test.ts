// The observed sandbox sends each submission.created webhook once and never again, like the
// service. With its rate limit on (a scaled window), a receiver that is down for part of the run,
// a worker and a reconciler walking the form the whole time: every submission runs the handler
// exactly once (the handler's own record, by submission key), the reconciler recovers exactly the
// ones whose webhook failed, and the ones whose webhook arrived while it walked run once, as webhooks.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormsClient } from '@forms-api/client';
import {
  createInbox,
  createInboxWorker,
  createReconciler,
  type Inbox,
  type InboxDelivery,
  type InboxWorker,
  type Reconciler,
} from '@forms-api/webhook-inbox';
import { runInboxCli } from '@forms-api/webhook-inbox/cli';
import { closeHttpServer, inboxMiddleware } from '@forms-api/webhook-inbox/express';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { listen, until } from '@forms-api/test-support';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

const SECRET = 'whsec_sandbox_reconcile_secret';
const FORM = 11;
// The service's 100 a minute per user, on a 30-times shorter window; the reconciler's share a fifth of it.
const RATE_WINDOW_MS = 2_000;

let redis: RedisServer | undefined;
let inbox: Inbox | undefined;
let worker: InboxWorker | undefined;
let reconciler: Reconciler | undefined;
let receiver: Server | undefined;
/** `http://127.0.0.1:<port>`: the receiver's server. */
let receiverBase = '';
let sb: SandboxHandle | undefined;
let receiverDown = false;
const runs = new Map<string, Array<Pick<InboxDelivery, 'origin' | 'firstOfSubmission'> & { name: unknown }>>();
let nameField = '';

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: 'sandbox', onRedisError: () => {} });
  worker = createInboxWorker({
    connection: redis.url,
    queue: 'sandbox',
    secret: SECRET,
    concurrency: 4,
    onRedisError: () => {},
    handler: (d) => {
      const record = runs.get(d.submissionKey!) ?? [];
      record.push({
        origin: d.origin,
        firstOfSubmission: d.firstOfSubmission,
        name: d.submission!.answers[nameField]?.value,
      });
      runs.set(d.submissionKey!, record);
    },
  });
  const middleware = inboxMiddleware(inbox);
  // Down: answers 503 before reading anything, as a load balancer with no healthy receiver does.
  receiver = createServer((req, res) => (receiverDown ? void res.writeHead(503).end() : middleware(req, res)));
  ({ url: receiverBase } = await listen(receiver));
  sb = await sandbox({ behaviour: 'observed', rateLimit: { limit: 100, windowMs: RATE_WINDOW_MS }, trustedProxies: 1 });
});

afterAll(async () => {
  await reconciler?.close();
  await sb?.close();
  if (receiver) await closeHttpServer(receiver);
  await inbox?.close();
  await worker?.close();
  await redis?.close();
});

// Each stage of the run may take this long on a loaded machine.
const WAIT = { timeoutMs: 60_000 };

describe('the reconciler beside the webhook inbox, against the observed sandbox', () => {
  it('runs every submission once, recovering exactly those whose webhook failed', async () => {
    const s = sb!;
    const url = `${receiverBase}/webhooks/forms`;
    const created = await call(s.baseUrl, 'POST', `/open/forms/${FORM}/integrations`, {
      token: s.tokens.all,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: url, webhook_secret: SECRET } },
    });
    expect(created.status).toBe(200);
    const integrationId = created.body.form_integration.id as number;
    const form = (await call(s.baseUrl, 'GET', `/open/forms/${FORM}`, { token: s.tokens.all })).body;
    nameField = form.properties.find((p: { name: string }) => p.name === 'Name').id as string;
    const emailField = form.properties.find((p: { name: string }) => p.name === 'Email').id as string;
    let address = 0;
    // Each answer from an address of its own (the public route is limited per address).
    const submit = async (count: number, marker: string) => {
      for (let i = 0; i < count; i++) {
        const response = await fetch(`${s.baseUrl}/forms/${FORM}/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${++address}` },
          body: JSON.stringify({ [nameField]: `${marker} ${i}`, [emailField]: 'ada@example.com' }),
        });
        expect(response.status).toBe(200);
      }
    };

    reconciler = await createReconciler({
      connection: redis!.url,
      queue: 'sandbox',
      client: createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all }),
      forms: [FORM],
      intervalMs: 300,
      graceMs: 1_500,
      lookbackMs: 5_000,
      // Several pages a walk, so answers arriving meanwhile shift them under it.
      perPage: 5,
      requestBudget: { requests: 20, windowMs: RATE_WINDOW_MS },
      onError: () => {},
    });

    // The sandbox sends webhooks after answering, as the service's queued listener does: each
    // phase ends once its webhooks were sent (an event each), before the receiver changes.
    const events = async () =>
      (
        await call(s.baseUrl, 'GET', `/open/forms/${FORM}/integrations/${integrationId}/events`, {
          token: s.tokens.all,
        })
      ).body as Array<{ status: string }>;
    const phase = async (marker: string, sent: number) => {
      await submit(8, marker);
      await until(`the webhooks of ${marker}`, async () => (await events()).length === sent, WAIT);
    };
    await phase('up', 8);
    receiverDown = true;
    await phase('down', 16);
    receiverDown = false;
    await phase('again', 24);
    const sent = await events();
    expect(sent.filter((e) => e.status === 'Success')).toHaveLength(16);
    expect(sent.filter((e) => e.status === 'Error')).toHaveLength(8);

    // Every submission made now is older than the grace at the next walk: wait until a walk has
    // passed them all (the watermark) and the queue has run what it holds.
    const madeBy = Date.now();
    await until(
      'a walk past every submission',
      async () => {
        const { watermark } = await reconciler!.state(FORM);
        return watermark !== null && Date.parse(watermark) >= madeBy;
      },
      WAIT,
    );
    // Every recovered job was queued before the watermark moved: drain waits for them to run.
    const drained = await runInboxCli(['drain', '--redis', redis!.url, '--queue', 'sandbox'], {
      out: () => {},
      err: () => {},
    });
    expect(drained).toBe(0);

    const all = [...runs.entries()];
    const phaseOf = (record: Array<{ name: unknown }>) => String(record[0]!.name).split(' ')[0];
    expect(all).toHaveLength(24);
    expect(all.every(([, record]) => record.length === 1 && record[0]!.firstOfSubmission)).toBe(true);
    const recovered = all
      .filter(([, record]) => record[0]!.origin === 'reconcile')
      .map(([, record]) => phaseOf(record));
    expect(recovered).toEqual(Array(8).fill('down'));
    const byWebhook = all.filter(([, record]) => record[0]!.origin === 'webhook').map(([, record]) => phaseOf(record));
    expect(byWebhook.sort()).toEqual([...Array(8).fill('again'), ...Array(8).fill('up')]);
    const state = await reconciler!.state(FORM);
    expect(state.recovered).toBe(8);
    expect(state.requests).toBeGreaterThan(0);
  });
});
