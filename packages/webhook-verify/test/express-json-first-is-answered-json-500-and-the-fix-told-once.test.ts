// Issue #30 item 17: behind `express.json()` the middleware passed its error to `next`, and
// Express's default handler answered the service with an HTML page holding the stack trace and the
// server's file paths, which the service keeps in its event log. The middleware now answers 500
// `{ error: 'invalid_body', message }` itself, and tells the developer the fix once on stderr.
import express from 'express';
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookMiddleware } from '../src/adapters/express.js';
import type { Rejection } from '../src/core/policy.js';
import { BODY, SECRET, SIGNATURE, listen, post } from './http-helpers.js';

type Target = { url: string; close: () => Promise<void> };

describe('express with express.json() mounted before the webhook route, and Express’s own error handler', () => {
  let target: Target;
  let reached = 0;
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.post(
      '/',
      webhookMiddleware({ secret: SECRET }, (_req, res) => {
        reached++;
        res.sendStatus(204);
      }),
    );
    target = await listen(createServer(app));
  });
  afterAll(() => target.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers every delivery JSON 500 without stack or paths, and tells the fix once on stderr', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    for (let i = 0; i < 3; i++) {
      const response = await fetch(target.url, {
        method: 'POST',
        body: BODY,
        headers: { 'content-type': 'application/json', 'x-webhook-signature': SIGNATURE },
      });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(text)).toEqual({ error: 'invalid_body', message: expect.stringMatching(/express\.raw/) });
      expect(text).not.toMatch(/<|\bat \w|node_modules|\/work\/|[A-Z]:\\/);
    }
    expect(reached).toBe(0);
    const told = lines.filter((line) => line.includes('invalid_body'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /^\[webhook-verify\] cannot take deliveries: 500 invalid_body: .*express\.json\(\).*express\.raw/,
    );
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(SIGNATURE.slice(7));
      expect(line).not.toContain('Contact Form'); // the body
    }
  });
});

describe('the same mistake with onRejected', () => {
  it('is reported for each delivery, with the error', async () => {
    const reports: Array<{ rejection: Rejection; error: unknown }> = [];
    const app = express();
    app.use(express.json());
    app.post(
      '/',
      webhookMiddleware(
        { secret: SECRET, onRejected: (rejection, error) => reports.push({ rejection, error }) },
        (_req, res) => res.sendStatus(204),
      ),
    );
    const target = await listen(createServer(app));
    try {
      for (let i = 0; i < 2; i++)
        expect((await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE })).status).toBe(500);
    } finally {
      await target.close();
    }
    expect(reports.map((r) => [r.rejection.status, r.rejection.reason])).toEqual([
      [500, 'invalid_body'],
      [500, 'invalid_body'],
    ]);
    expect(reports[0]!.error).toMatchObject({ name: 'WebhookVerifyError', kind: 'invalid_body' });
  });
});
