// Issue 31: a request of the suite has one timeout, one body cap and one pacer, those of the
// toolkit's client, and the client's retries never send a status again: a check sees the first
// answer. The recorder under the client only records what went on the wire.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequestPacer, isFormsApiError, type Clock } from '@forms-api/client';
import { listen } from '@forms-api/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, ExchangeRecorder } from '../src/targets/http-client.js';
import { MAX_RESPONSE_BYTES, REQUEST_TIMEOUT_MS } from '../src/targets/limits.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A tenant on 127.0.0.1 answering with `handle`; its URL and the requests it received. */
async function tenant(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: IncomingMessage[] = [];
  server = createServer((req, res) => {
    received.push(req);
    req.resume();
    handle(req, res);
  });
  const { url } = await listen(server);
  return { baseUrl: url, received };
}

const getForm = { params: { path: { form: 1 } } };

describe("a request of the suite goes through the client's transport alone", () => {
  it("ends at the client's timeout, sent once, and is reported as such", async () => {
    const { baseUrl, received } = await tenant(() => {
      // Never answers.
    });
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, token: 't0ken', recorder });
    const { answer, thrown } = await recorder.answer(false, () => client.GET('/open/forms/{form}', getForm));
    expect(isFormsApiError(thrown) && thrown.kind).toBe('timeout');
    expect(answer?.status).toBeUndefined();
    expect(answer?.transportError).toBe(`TimeoutError: No response within ${REQUEST_TIMEOUT_MS} ms.`);
    // A timed-out request is not sent again, safe or not.
    expect(received).toHaveLength(1);
  }, 60_000);

  it("stops reading a body over the cap with the client's typed error, marked on the exchange", async () => {
    let written = 0;
    const { baseUrl } = await tenant((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let closed = false;
      res.on('close', () => (closed = true));
      const pump = () => {
        while (!closed && written < 4 * MAX_RESPONSE_BYTES) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!closed) res.end('{}');
      };
      pump();
    });
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, token: 't0ken', recorder });
    const { answer, thrown } = await recorder.answer(false, () => client.GET('/open/forms/{form}', getForm));
    expect(isFormsApiError(thrown) && thrown.kind).toBe('response_too_large');
    expect(answer).toMatchObject({ status: 200, responseBodyLimit: MAX_RESPONSE_BYTES });
    expect(recorder.last()).toBe(answer);
    // What the client read, no more than a chunk past the cap: the recorder held no more either.
    expect(answer!.responseBody!.length).toBeGreaterThanOrEqual(MAX_RESPONSE_BYTES);
    expect(answer!.responseBody!.length).toBeLessThan(MAX_RESPONSE_BYTES + 1024 * 1024);
    expect(written).toBeLessThan(2 * MAX_RESPONSE_BYTES);
  });

  for (const status of [429, 500, 503]) {
    it(`hands a ${status} to the check as it came: sent once, not retried`, async () => {
      const { baseUrl, received } = await tenant((_req, res) =>
        res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"message":"no"}'),
      );
      const recorder = new ExchangeRecorder();
      const client = createHttpClient({ baseUrl, token: 't0ken', recorder });
      const { answer } = await recorder.answer(false, () => client.GET('/open/forms/{form}', getForm));
      expect(answer).toMatchObject({ status, responseBody: '{"message":"no"}' });
      expect(answer?.rateLimited).toBeUndefined();
      expect(received).toHaveLength(1);
    });
  }

  it("spends one budget for every client of a target, with a token or without: the target's pacer", async () => {
    const { baseUrl, received } = await tenant((_req, res) =>
      res
        .writeHead(401, { 'content-type': 'application/json', 'x-ratelimit-limit': '2' })
        .end('{"message":"Unauthenticated."}'),
    );
    // Virtual time: the pacer's waits are counted, not waited.
    let now = 0;
    const waits: number[] = [];
    const clock: Clock = { now: () => now, sleep: async (ms) => void (now += ms) };
    const pacer = createRequestPacer({
      requestsPerMinute: 2,
      onlyWhenLimited: true,
      clock,
      onWait: (w) => waits.push(w.waitMs),
    });
    const traffic = { requests: 0 };
    const recorder = new ExchangeRecorder();
    const withToken = createHttpClient({ baseUrl, token: 't0ken', recorder, pacer, traffic });
    const without = createHttpClient({ baseUrl, recorder, pacer, traffic });
    for (const client of [withToken, without, withToken, without]) await client.GET('/open/forms/{form}', getForm);
    expect(received.map((r) => r.headers.authorization)).toEqual([
      'Bearer t0ken',
      undefined,
      'Bearer t0ken',
      undefined,
    ]);
    // Two a minute for all four: each after the first waited for its slot.
    expect(waits).toHaveLength(3);
    expect(pacer.stats().requests).toBe(4);
    expect(traffic.requests).toBe(4);
  });

  it('counts the 429s a pacer waited out on the answer it gave up on', async () => {
    const { baseUrl, received } = await tenant((_req, res) =>
      res.writeHead(429, { 'retry-after': '0', 'x-ratelimit-limit': '100' }).end(),
    );
    const pacer = createRequestPacer({ requestsPerMinute: 6000, max429Retries: 2 });
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, token: 't0ken', recorder, pacer });
    const { answer } = await recorder.answer(true, () => client.GET('/open/forms/{form}', getForm));
    expect(received).toHaveLength(3);
    expect(answer).toMatchObject({ status: 429, rateLimited: { refusals: 3 } });
  });
});
