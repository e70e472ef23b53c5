// Hostile or careless inputs, each bounded in time and memory: a handler that throws must not
// take the receiver's process down, a signed non-object body is not a payload, a replay window
// that is not a positive number is refused, and the CLI answers argument errors with exit 2.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createWebhookListener, webhookMiddleware } from '../src/adapters/node.js';
import { webhookVerify } from '../src/adapters/fastify.js';
import * as fetchWeb from '../src/adapters/fetch-web.js';
import { MemoryReplayStore, WebhookVerifyError, createVerifier, parseWebhook, sign } from '../src/node.js';
import * as web from '../src/web.js';
import { BODY, SECRET, SIGNATURE, listenOn, post } from './http-helpers.js';

const dist = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;

/** Runs a script with this Node; resolves with its exit code and output, killing it after `timeoutMs`. */
function runNode(
  args: string[],
  options: { input?: string; timeoutMs?: number; onStdout?: (text: string, kill: () => void) => void } = {},
) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      options.onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

describe('a createWebhookListener receiver whose handler throws synchronously', () => {
  it('answers 500 and keeps serving instead of exiting the process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-listener-'));
    const script = join(dir, 'receiver.mjs');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
       import { createWebhookListener } from ${JSON.stringify(dist('adapters/node.js'))};
       let calls = 0;
       const server = createServer(createWebhookListener({ secret: ${JSON.stringify(SECRET)} }, (payload, req, res) => {
         if (++calls === 1) throw new Error('handler bug');
         res.writeHead(204).end();
       }));
       server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`,
    );
    const statuses: number[] = [];
    const outcome = await runNode([script], {
      onStdout: (text, kill) => {
        const port = /port (\d+)/.exec(text)?.[1];
        if (!port || statuses.length > 0) return;
        statuses.push(0);
        void (async () => {
          const url = `http://127.0.0.1:${port}`;
          const headers = { 'x-webhook-signature': SIGNATURE };
          statuses[0] = await post(url, BODY, headers).then(
            (r) => r.status,
            () => -1,
          );
          statuses.push(
            await post(url, BODY, headers).then(
              (r) => r.status,
              () => -1,
            ),
          );
          kill();
        })();
      },
    });
    expect(statuses).toEqual([500, 204]);
    expect(outcome.signal).toBe('SIGTERM'); // still running until the test stopped it
    expect(outcome.stderr).toMatch(/handler bug/); // reported, not swallowed
  });
});

describe('a signed body that is JSON but not an object', () => {
  const bodies = ['null', '[]', '[{"form_id":1}]', '42', '"a string"', 'true'];

  it.each(bodies)('%s is refused as invalid_payload by both builds', async (body) => {
    const signature = await sign(SECRET, body);
    for (const api of [{ parseWebhook, createVerifier }, web]) {
      const error = await api.parseWebhook(SECRET, body, signature).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerifyError);
      expect((error as WebhookVerifyError).kind).toBe('invalid_payload');
      await expect(api.createVerifier({ secret: SECRET }).parseWebhook(body, signature)).rejects.toMatchObject({
        kind: 'invalid_payload',
      });
    }
  });

  it('never reaches a listener handler, which answers 400', async () => {
    let reached = 0;
    const target = await listenOn(
      createWebhookListener({ secret: SECRET }, (_payload, _req, res) => void (reached++, res.writeHead(204).end())),
    );
    try {
      const response = await post(target.url, 'null', { 'x-webhook-signature': await sign(SECRET, 'null') });
      expect(response.status).toBe(400);
      expect(response.json().error).toBe('invalid_payload');
      expect(reached).toBe(0);
    } finally {
      await target.close();
    }
  });
});

describe('a replay window that is not a positive whole number of milliseconds', () => {
  const unset = Number(process.env.FORMS_WEBHOOK_SURELY_UNSET_VARIABLE);
  const windows: Array<[string, number]> = [
    ['NaN (an unset environment variable through Number())', unset],
    ['0', 0],
    ['a negative number', -1000],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a fraction', 1.5],
  ];

  it.each(windows)(
    '%s is refused with a WebhookVerifyError everywhere it can be given',
    async (_label, replayTtlMs) => {
      const options = { secret: SECRET, replayStore: new MemoryReplayStore(), replayTtlMs };
      const refusals: unknown[] = [
        await parseWebhook(SECRET, BODY, SIGNATURE, options).catch((e: unknown) => e),
        await web.parseWebhook(SECRET, BODY, SIGNATURE, options).catch((e: unknown) => e),
        ...[
          () => createVerifier(options),
          () => webhookMiddleware(options),
          () => createWebhookListener(options, () => {}),
          () => fetchWeb.webhookHandler(options, () => new Response()),
        ].map((create) => {
          try {
            create();
            return 'accepted';
          } catch (error) {
            return error;
          }
        }),
        await (async () => {
          const app = Fastify();
          app.register(webhookVerify, options);
          const outcome = await app.ready().then(
            () => 'accepted',
            (e: unknown) => e,
          );
          await app.close();
          return outcome;
        })(),
      ];
      for (const refusal of refusals) {
        expect(refusal).toBeInstanceOf(WebhookVerifyError);
        expect((refusal as WebhookVerifyError).kind).toBe('invalid_option');
        expect((refusal as Error).message).toMatch(/replayTtlMs/);
      }
    },
  );

  it('a positive whole number is accepted', async () => {
    expect(
      (await parseWebhook(SECRET, BODY, SIGNATURE, { replayStore: new MemoryReplayStore(), replayTtlMs: 60_000 }))
        .submission_id,
    ).toBe(456);
  });
});

describe('the forms-webhook CLI given bad arguments', () => {
  const bin = fileURLToPath(new URL('../bin/forms-webhook.js', import.meta.url));
  const cases: Array<[string, string[], RegExp]> = [
    ['--timeout-ms abc', ['send', 'http://127.0.0.1:9/', '--timeout-ms', 'abc'], /--timeout-ms/],
    ['--timeout-ms -5', ['send', 'http://127.0.0.1:9/', '--timeout-ms', '-5'], /--timeout-ms/],
    [
      'a missing --body file',
      ['sign', '--secret', SECRET, '--body', '/nonexistent/forms-webhook-body.json'],
      /forms-webhook-body\.json/,
    ],
    ['an unknown flag', ['sign', '--secret', SECRET, '--sekret', 'x'], /--sekret/],
    ['a flag without its value', ['verify', '--secret', SECRET, '--signature'], /--signature/],
    ['an unknown command', ['frobnicate'], /frobnicate/],
  ];

  it.each(cases)('%s: exit 2 with the problem and a usage line, no stack trace', async (_label, args, problem) => {
    const { code, stderr } = await runNode([bin, ...args], { input: BODY, timeoutMs: 10_000 });
    expect(code).toBe(2);
    expect(stderr).toMatch(problem);
    expect(stderr).toMatch(/^Usage: forms-webhook /m);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
