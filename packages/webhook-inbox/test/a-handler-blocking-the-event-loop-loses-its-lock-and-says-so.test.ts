// A handler that blocks the event loop (synchronous CPU work) longer than its lock stops BullMQ's
// lock renewals: the job's lock expires and the job runs again, possibly on another worker at the
// same time. That cannot be prevented from inside the blocked thread; it must be detected and said
// plainly: the run is reported as lock_lost with the measured block and the fix, the job's log
// keeps it, and the dead letter it ends as points there.
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { runInboxCli } from '../src/cli.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';

const world = processWorldPerFile();
const QUEUE = 'blocked';

async function cli(...args: string[]) {
  let out = '';
  const code = await runInboxCli([...args, '--redis', world.redis.url, '--queue', QUEUE], {
    out: (line) => (out += `${line}\n`),
    err: (line) => (out += `${line}\n`),
  });
  return { code, out };
}

describe('a handler that blocks the event loop longer than its lock', () => {
  it('is reported as lock_lost with the block it measured, and the dead letter says where to look', async () => {
    const env = { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: QUEUE };
    const receiver = await startFixture('receiver.mjs', env);
    const worker = await startFixture('worker.mjs', {
      ...env,
      CONCURRENCY: '1',
      BLOCK_SUBMISSION: '9',
      BLOCK_MS: '1500',
      LOCK_MS: '500',
      STALLED_MS: '400',
    });
    world.fixtures.push(receiver, worker);
    const delivery = await signedDelivery(9);
    const posted = await postDelivery(`http://127.0.0.1:${receiver.port}/webhooks/forms`, delivery);
    expect(posted.status).toBe(202);
    const id = posted.body.id!;

    await until(
      'the worker to report the lost lock',
      () => /lock_lost|The event loop was blocked/.test(worker.output()),
      { timeoutMs: 15_000 },
    );
    const reported = new RegExp(
      `delivery ${id}, attempt 1: The event loop was blocked for (\\d+) ms during this run, longer than the lock renewal period \\(half of lockDurationMs, 500 ms\\)`,
    ).exec(worker.output());
    expect(reported, worker.output()).not.toBeNull();
    expect(Number(reported![1])).toBeGreaterThanOrEqual(1_400); // the 1,500 ms block, less one tick at most
    expect(worker.output()).toMatch(
      /Move CPU-bound work off the event loop \(node:worker_threads\) or raise lockDurationMs/,
    );
    expect(worker.output()).not.toMatch(/Redis at .* is unreachable/);

    await until(
      'the job to end in the failed set',
      async () => JSON.parse((await cli('failed', '--json')).out).length === 1,
      { timeoutMs: 20_000 },
    );
    const listed = await cli('failed');
    expect(listed.out).toContain('job stalled more than allowable limit');
    expect(listed.out).toMatch(/a handler blocked the event loop; `show` prints the job's log/);
    const shown = JSON.parse((await cli('show', id, '--json')).out) as { logs: string[] };
    expect(shown.logs.some((line) => /The event loop was blocked for \d+ ms during this run/.test(line))).toBe(true);
  });
});
