// The CLI's output is often piped (`| less`, `| jq`, a CI log collector) to a reader slower than
// the command. Ending with process.exit() cut that output short (100,000 lines arrived as 640);
// the command must set its exit code and let stdout drain instead. Real process, real pipe.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { storeDelivery } from '../src/delivery.js';
import { inboxQueuePrefix } from '../src/index.js';
import { deliveryBody } from './support/deliveries.js';

const QUEUE = 'slow-pipe';
let redis: RedisServer;
let id: string;
let expectedBytes: number;

beforeAll(async () => {
  redis = await startRedisServer();
  const queue = new Queue(QUEUE, {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: inboxQueuePrefix(QUEUE),
  });
  try {
    // A payload of 4,000 answers: `show` prints it pretty, one line per key, about 1 MB.
    const body = JSON.parse(deliveryBody(1)) as { data: Record<string, unknown> };
    for (let i = 0; i < 4_000; i++)
      body.data[`field-${i}`] = { value: `answer ${i} ${'x'.repeat(200)}`, name: `Question ${i}`, type: 'text' };
    const rawBody = new TextEncoder().encode(JSON.stringify(body));
    const job = await queue.add(
      'submission.created',
      storeDelivery({ rawBody, signature: 'sha256=x', headers: {} }, Date.now()),
      { jobId: 'wh-big' },
    );
    id = job.id!;
    expectedBytes = rawBody.byteLength;
  } finally {
    await queue.close();
  }
});

afterAll(async () => {
  await redis?.close();
});

describe('the CLI through a slow pipe', () => {
  it('writes all of its output before it exits, with its exit code', async () => {
    const bin = fileURLToPath(new URL('../bin/forms-webhook-inbox.js', import.meta.url));
    const child = spawn(process.execPath, [bin, 'show', id, '--queue', QUEUE, '--redis', redis.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // A slow reader: nothing read until the pipe is full (this side's buffer stops taking from it:
    // the command can write no more and goes on to its end), then 16 KiB at a time with pauses.
    child.stdout.pause();
    await until(
      'the pipe to fill',
      () => child.stdout.readableLength >= child.stdout.readableHighWaterMark || child.exitCode !== null,
    );
    child.stdout.on('readable', () => {
      const read = () => {
        const chunk = child.stdout.read(16 * 1024) as Buffer | null;
        if (!chunk) return;
        chunks.push(chunk);
        setTimeout(read, 5);
      };
      read();
    });
    const code = await exited;
    const out = Buffer.concat(chunks).toString('utf8');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(out.length).toBeGreaterThan(expectedBytes);
    const shown = JSON.parse(out) as {
      id: string;
      delivery: { bytes: number; payload: { data: Record<string, unknown> } };
    };
    expect(shown.id).toBe(id);
    expect(shown.delivery.bytes).toBe(expectedBytes);
    expect(Object.keys(shown.delivery.payload.data)).toHaveLength(4_001);
  });
});
