// Two things that need no Redis: options that cannot work fail at construction with the option's
// name; and a delivery's bytes, any bytes, come back to the handler exactly as they were signed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookVerifyError } from '@forms-api/webhook-verify';
import { inboxHandler } from '../src/adapters/fetch.js';
import { inboxMiddleware } from '../src/adapters/node.js';
import { readDelivery, storeDelivery } from '../src/delivery.js';
import { createInbox, createInboxWorker, InboxError, jobIdFor, type InboxOptions } from '../src/index.js';
import { SECRET } from './support/deliveries.js';

const base: InboxOptions = { connection: 'redis://127.0.0.1:1', secret: SECRET };

describe('misuse', () => {
  it.each([
    ['a connection that is not a URL', { connection: 'localhost:6379' }, /redis:\/\/ or rediss:\/\/ URL/],
    ['no connection', { connection: undefined }, /Pass `connection`/],
    ['ioredis keyPrefix', { connection: { host: '127.0.0.1', keyPrefix: 'x:' } }, /keyPrefix/],
    ['a zero enqueue timeout', { enqueueTimeoutMs: 0 }, /`enqueueTimeoutMs` must be a positive integer \(got 0\)/],
    ['a fractional dedupe window', { dedupeWindowMs: 1.5 }, /`dedupeWindowMs` must be a positive integer/],
    ['zero attempts', { retry: { attempts: 0 } }, /`retry.attempts` must be a positive integer/],
    [
      'an empty failed retention',
      { retention: { failed: {} } },
      /`retention.failed` needs `ageSeconds`, `count` or both/,
    ],
  ])('createInbox refuses %s', (_label, override, message) => {
    const attempt = () => createInbox({ ...base, ...(override as Partial<InboxOptions>) });
    expect(attempt).toThrow(InboxError);
    expect(attempt).toThrow(message);
  });

  it("createInbox refuses an empty or padded secret with webhook-verify's error", () => {
    expect(() => createInbox({ ...base, secret: '' })).toThrow(WebhookVerifyError);
    expect(() => createInbox({ ...base, secret: `${SECRET}\n` })).toThrow(/leading or trailing whitespace/);
  });

  it('createInboxWorker refuses a missing handler or concurrency 0', () => {
    expect(() => createInboxWorker({ connection: base.connection } as never)).toThrow(/Pass `handler`/);
    expect(() => createInboxWorker({ connection: base.connection, handler: () => {}, concurrency: 0 })).toThrow(
      /`concurrency` must be a positive integer/,
    );
  });

  // Trial finding (issue #30): `concurency: 2` was accepted silently (one delivery at a time, the
  // default), while the inbox refused unknown retry options. Both now name the option and the fix.
  it('createInboxWorker and createInbox refuse a misspelt option, naming the one meant', () => {
    const misspelt = () =>
      createInboxWorker({ connection: base.connection, handler: () => {}, concurency: 2 } as never);
    expect(misspelt).toThrow(InboxError);
    expect(misspelt).toThrow(
      /^`concurency` is not an option of createInboxWorker\. Did you mean `concurrency`\? The options of createInboxWorker are connection, handler, /,
    );
    expect(() => createInbox({ ...base, maxBodyByte: 10 } as never)).toThrow(
      /^`maxBodyByte` is not an option of createInbox\. Did you mean `maxBodyBytes`\?/,
    );
    expect(() => createInbox({ ...base, redisUrl: 'redis://x' } as never)).toThrow(
      /^`redisUrl` is not an option of createInbox\. The options of createInbox are connection, secret, queue/,
    );
  });

  it('the adapters refuse anything but an inbox from createInbox', () => {
    const fake = {
      queue: 'x',
      closing: false,
      enqueue: async () => ({ id: 'x' }),
      health: async () => ({ ok: true }),
      close: async () => {},
    };
    expect(() => inboxMiddleware(fake)).toThrow(/Pass the inbox returned by createInbox\(\)/);
    expect(() => inboxHandler(fake)).toThrow(InboxError);
  });
});

describe('bytes through the queue', () => {
  it('come back exactly as signed, with the parsed payload and the headers, whatever they are', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()).map((payload) => JSON.stringify(payload)),
        fc.boolean(),
        fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), fc.string()),
        (text, withBom, headers) => {
          const json = new TextEncoder().encode(text);
          const rawBody = withBom ? new Uint8Array([...bom, ...json]) : json;
          // Through JSON, as BullMQ stores job data in Redis.
          const stored = JSON.parse(
            JSON.stringify(storeDelivery({ rawBody, signature: 'sha256=x', headers }, 1_700_000_000_000)),
          );
          const read = readDelivery(stored, 'wh-test');
          expect(new Uint8Array(read.rawBody)).toEqual(rawBody);
          expect(read.payload).toEqual(JSON.parse(text));
          expect(read.headers).toEqual(headers);
          expect(read.receivedAt.getTime()).toBe(1_700_000_000_000);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses job data it did not write instead of guessing', () => {
    expect(() => readDelivery({ hello: 'world' }, 'wh-x')).toThrow(
      /does not hold a delivery written by @forms-api\/webhook-inbox/,
    );
    expect(() =>
      readDelivery({ v: 1, body: Buffer.from('nope').toString('base64'), headers: {}, receivedAt: 1 }, 'wh-x'),
    ).toThrow(/not JSON/);
    // Valid JSON that is no payload: never handed to a handler typed for an object.
    for (const [json, what] of [
      ['null', 'null'],
      ['[1]', 'an array'],
      ['7', 'a number'],
      ['"x"', 'a string'],
    ]) {
      expect(() =>
        readDelivery({ v: 1, body: Buffer.from(json!).toString('base64'), headers: {}, receivedAt: 1 }, 'wh-x'),
      ).toThrow(`holds a body that is ${what}, not a submission.created object`);
    }
  });

  it('names a delivery by its signed bytes, in a form that does not carry them', () => {
    const body = '{"form_id":1,"submission_id":2,"secret_answer":"c0c0c0"}';
    expect(jobIdFor(body)).toMatch(/^wh-[0-9a-f]{64}$/);
    expect(jobIdFor(body)).toBe(jobIdFor(Buffer.from(body)));
    expect(jobIdFor(body)).not.toContain('c0c0c0');
    expect(jobIdFor(`${body} `)).not.toBe(jobIdFor(body));
  });
});
