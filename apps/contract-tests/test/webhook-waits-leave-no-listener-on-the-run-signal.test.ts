// Every run with a sandbox target printed `MaxListenersExceededWarning: Possible EventTarget memory
// leak detected. 11 abort listeners added to [AbortSignal]`: each wait for a webhook added a
// listener to the run's signal and never took it off. A wait that ends, delivered or timed out,
// leaves none; an abort still ends the wait.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type WebhookReceiver } from '../src/webhooks/receiver.js';

describe("waiting for a webhook under the run's signal", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it('leaves no abort listener once each wait has ended', async () => {
    const run = new AbortController();
    for (let i = 0; i < 12; i++) {
      if (i % 2 === 0) {
        const waiting = receiver.waitFor(receiver.received.length, 5_000, run.signal);
        await fetch(`http://127.0.0.1:${receiver.port}/hook`, { method: 'POST', body: `{"n":${i}}` });
        expect(await waiting).toMatchObject({ method: 'POST', path: '/hook' });
      } else {
        expect(await receiver.waitFor(receiver.received.length, 5, run.signal)).toBeUndefined();
      }
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('still ends a wait when the run is aborted', async () => {
    const run = new AbortController();
    const waiting = receiver.waitFor(receiver.received.length, 60_000, run.signal);
    run.abort();
    expect(await waiting).toBeUndefined();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
