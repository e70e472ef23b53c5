// Issue 20 #2 over real HTTP: 200 unauthenticated connections each send 1 MiB − 1 KiB and stall.
// The receiver (a process of its own, default limits) must hold no more than its budget of
// unverified bytes and close every such connection once the 5 s body deadline has passed.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { listen, until } from '@forms-api/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import * as api from '../src/node.js';
import { SECRET, SIGNATURE } from './http-helpers.js';

const CONNECTIONS = 200;
const SENT = 1024 * 1024 - 1024;
const MiB = 1024 * 1024;
// The documented defaults (the service waits 5 s; 32 bodies of 1 MiB), checked against the exports below.
const DEFAULT_BODY_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_PENDING_BODY_BYTES = 32 * MiB;
const STALLED_PART = Buffer.alloc(SENT, 0x20); // one buffer shared by every socket

let receiver: ChildProcess | undefined;
afterEach(() => {
  receiver?.kill();
  receiver = undefined;
});

async function startReceiver(
  adapter: 'node' | 'fetch',
): Promise<{ port: number; report: () => Promise<{ baseline: number; peak: number; open: number }> }> {
  receiver = fork(new URL('./fixtures/stalling-receiver.mjs', import.meta.url), {
    execArgv: ['--expose-gc'],
    env: { ...process.env, ADAPTER: adapter, SECRET },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const child = receiver;
  const [{ port }] = (await once(child, 'message')) as [{ port: number }];
  return {
    port,
    report: async () => {
      child.send('report');
      const [report] = (await once(child, 'message')) as [{ baseline: number; peak: number; open: number }];
      return report;
    },
  };
}

interface Stalled {
  socket: Socket;
  opened: number;
  closedAfterMs?: number;
  response: string;
}

function stall(port: number): Stalled {
  const socket = connect(port, '127.0.0.1');
  const stalled: Stalled = { socket, opened: performance.now(), response: '' };
  socket.on('data', (chunk) => (stalled.response += chunk.toString('latin1')));
  socket.on('error', () => {}); // a reset after the answer is a close too
  socket.on('close', () => (stalled.closedAfterMs = performance.now() - stalled.opened));
  socket.write(
    `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MiB}\r\nX-Webhook-Signature: ${SIGNATURE}\r\n\r\n`,
  );
  socket.write(STALLED_PART);
  return stalled;
}

it('documents the defaults it is judged by', () => {
  expect({
    timeout: (api as Record<string, unknown>).DEFAULT_BODY_TIMEOUT_MS,
    budget: (api as Record<string, unknown>).DEFAULT_MAX_PENDING_BODY_BYTES,
  }).toEqual({
    timeout: DEFAULT_BODY_TIMEOUT_MS,
    budget: DEFAULT_MAX_PENDING_BODY_BYTES,
  });
});

describe.each(['node', 'fetch'] as const)('%s adapter under 200 stalled 1 MiB bodies', (adapter) => {
  it('holds at most its budget of unverified bytes and closes every connection after the body deadline', async () => {
    const { port, report } = await startReceiver(adapter);
    const connections = Array.from({ length: CONNECTIONS }, () => stall(port));
    // A loaded 2-core machine (CI runs three test tasks at once) closes 200 sockets late: accept up
    // to 25 s late, which still tells the deadline from Node's 300 s request timeout, the only limit before.
    const slack = 25_000;
    await until(
      `all ${CONNECTIONS} stalled connections to be closed by the receiver`,
      () => connections.every((c) => c.closedAfterMs !== undefined),
      { timeoutMs: DEFAULT_BODY_TIMEOUT_MS + slack + 5_000 },
    );
    const { baseline, peak, open } = await report();
    const stillOpen = connections.filter((c) => c.closedAfterMs === undefined).length;
    const lateCloses = connections.filter(
      (c) => (c.closedAfterMs ?? Infinity) > DEFAULT_BODY_TIMEOUT_MS + slack,
    ).length;
    const heldMiB = (peak - baseline) / MiB;
    console.log(
      `${adapter}: ${CONNECTIONS} stalled bodies of ${SENT} bytes: peak +${heldMiB.toFixed(1)} MiB of arrayBuffers (budget ${DEFAULT_MAX_PENDING_BODY_BYTES / MiB} MiB), ${stillOpen} still open, ${lateCloses} closed later than ${DEFAULT_BODY_TIMEOUT_MS + slack} ms`,
    );
    for (const c of connections) c.socket.destroy();
    expect(stillOpen).toBe(0);
    expect(lateCloses).toBe(0);
    expect(open).toBe(0);
    // The budget, plus what is not the budget's to count: up to 2 × 64 KiB read ahead per socket
    // before its stream is paused (25 MiB for 200) and chunks the collector has not freed yet.
    // The unbounded reader held all 200 bodies (~200 MiB).
    expect(heldMiB).toBeLessThan(DEFAULT_MAX_PENDING_BODY_BYTES / MiB + 64);
    const statuses = connections.map((c) => /^HTTP\/1\.1 (\d{3})/.exec(c.response)?.[1]);
    const answered = statuses.filter((s) => s !== undefined);
    expect(answered.filter((s) => s !== '408' && s !== '503')).toEqual([]);
    if (adapter === 'node') {
      // node:http answers every one: 503 with Retry-After past the budget at once, 408 at the deadline.
      expect(answered.length).toBe(CONNECTIONS);
      expect(statuses).toContain('408');
      expect(statuses).toContain('503');
      for (const c of connections.filter((c) => c.response.startsWith('HTTP/1.1 503')))
        expect(c.response).toMatch(/\r\nretry-after: 5\r\n/i);
    }
  }, 40_000);
});

describe('the limits are configurable and checked', () => {
  it('answers 408 at a custom deadline and 503 with Retry-After past a custom budget, then frees the budget', async () => {
    const { createServer } = await import('node:http');
    const { createWebhookListener } = await import('../src/adapters/node.js');
    const bodyBudget = api.createBodyBudget(2048);
    const server = createServer(
      createWebhookListener(
        { secret: SECRET, bodyTimeoutMs: 400, maxBodyBytes: 2048, bodyBudget },
        (_p, _r, res) => void res.writeHead(204).end(),
      ),
    );
    const { port } = await listen(server);
    const send = (bytes: number) => {
      const socket = connect(port, '127.0.0.1');
      const seen = { response: '', closed: false };
      socket
        .on('data', (chunk) => (seen.response += chunk.toString('latin1')))
        .on('close', () => (seen.closed = true))
        .on('error', () => {});
      socket.write(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2048\r\nX-Webhook-Signature: ${SIGNATURE}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(bytes, 0x20));
      return seen;
    };
    const first = send(1500);
    await until('the first body to be held', () => bodyBudget.heldBytes === 1500, { timeoutMs: 5_000 });
    const second = send(1000); // 1500 + 1000 > 2048
    await until('both connections to be closed', () => first.closed && second.closed, { timeoutMs: 5_000 });
    server.close();
    expect(second.response).toMatch(/^HTTP\/1\.1 503 [^]*\r\nretry-after: 1\r\n[^]*"error":"receiver_busy"/i);
    expect(first.response).toMatch(/^HTTP\/1\.1 408 [^]*"error":"body_timeout"[^]*bodyTimeoutMs/);
    expect(bodyBudget.heldBytes).toBe(0);
  });

  it.each([
    [{ bodyTimeoutMs: 0 }, /bodyTimeoutMs/],
    [{ bodyTimeoutMs: Number.NaN }, /bodyTimeoutMs/],
    [{ bodyBudget: {} }, /createBodyBudget/],
    [{ bodyBudget: api.createBodyBudget(10), maxBodyBytes: 11 }, /less than one body/],
  ])('refuses %o at start-up', async (options, message) => {
    const { createWebhookListener } = await import('../src/adapters/node.js');
    expect(() => createWebhookListener({ secret: SECRET, ...(options as object) }, () => {})).toThrow(message);
  });
});
