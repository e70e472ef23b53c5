// Trial finding: a receiver whose every delivery was refused (a wrong secret: 401
// signature_mismatch) said nothing on stderr; only the metrics counted it. Now the first refusal
// is one line with the status, the reason and the advice, and what follows within a minute is one
// summary line by reason, so a flood of forged requests cannot flood the log.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { until } from '@forms-api/test-support';
import { rejectionLog } from '../src/rejection-log.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';

const world = processWorldPerFile();

describe('a receiver run with the defaults', () => {
  it('says on stderr that it refuses deliveries signed with another secret, once, not once per delivery', async () => {
    const receiver = await startFixture('receiver.mjs', {
      REDIS_URL: world.redis.url,
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: 'refusals',
    });
    world.fixtures.push(receiver);
    const url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
    for (let i = 0; i < 25; i++) {
      const forged = await signedDelivery(70_000 + i);
      const posted = await postDelivery(url, { ...forged, signature: `sha256=${'0'.repeat(64)}` });
      expect(posted.status).toBe(401);
    }
    await until('the refusal is on stderr', () => receiver.output().includes('refused a delivery'));
    const lines = receiver
      .output()
      .split('\n')
      .filter((line) => line.startsWith('[webhook-inbox] refused'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[webhook-inbox\] refused a delivery: 401 signature_mismatch: .*secret/i);
    expect(receiver.output()).not.toContain(SECRET);
  });
});

describe('rejectionLog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first refusal, then one summary by reason per window, and starts afresh after a quiet window', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = rejectionLog((line) => lines.push(line), 60_000);
    log.report({ reason: 'signature_mismatch', status: 401, message: 'The signature does not match.' });
    expect(lines).toEqual([
      '[webhook-inbox] refused a delivery: 401 signature_mismatch: The signature does not match. (further refusals are summed up every 60 s)',
    ]);
    for (let i = 0; i < 1000; i++) log.report({ reason: 'signature_mismatch', status: 401, message: 'x' });
    log.report({ reason: 'body_too_large', status: 413, message: 'x' });
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(60_000);
    expect(lines[1]).toBe(
      '[webhook-inbox] refused 1001 more deliveries in the last 60 s: signature_mismatch 1000, body_too_large 1.',
    );
    // A window without refusals writes nothing and closes; the next refusal is a first line again.
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
    log.report({ reason: 'unsupported_content_type', status: 415, message: 'text/plain' });
    expect(lines[2]).toMatch(/^\[webhook-inbox\] refused a delivery: 415 unsupported_content_type: text\/plain/);
  });

  it('writes what is pending when closed, and keeps a message on one line', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = rejectionLog((line) => lines.push(line), 60_000);
    log.report({ reason: 'http_400', status: 400, message: 'forged\n[webhook-inbox] all good\u001b[2K' });
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).not.toContain('\u001b');
    log.report({ reason: 'http_400', status: 400, message: 'x' });
    log.close();
    expect(lines[1]).toBe('[webhook-inbox] refused 1 more delivery in the last 60 s: http_400 1.');
    vi.advanceTimersByTime(120_000);
    expect(lines).toHaveLength(2);
  });
});
