// `next` is the framework's: when it throws synchronously (plain node:http code, a minimal router
// without an error handler), the inbox middleware must not turn that into an unhandled rejection,
// which ends a Node process; the request is answered 500 and the receiver lives on.
import { describe, expect, it } from 'vitest';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';

const world = processWorldPerFile();

describe('a next that throws', () => {
  it('is answered 500, and the process keeps serving', async () => {
    const receiver = await startFixture('throwing-next.mjs', { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET });
    world.fixtures.push(receiver);
    const base = `http://127.0.0.1:${receiver.port}`;
    for (let round = 0; round < 3; round++) {
      expect((await postDelivery(`${base}/webhooks/forms`, await signedDelivery(round))).status).toBe(500);
      expect((await fetch(`${base}/healthz`)).status).toBe(500);
    }
    expect(receiver.child.exitCode).toBeNull();
    expect(receiver.output()).not.toMatch(/unhandled|the router has no error handler\n\s+at/i);
  });
});
