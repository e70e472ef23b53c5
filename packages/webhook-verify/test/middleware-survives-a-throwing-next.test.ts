// Issue 20 #15: in plain node:http or a minimal router, a handler after webhookMiddleware that
// throws or rejects out of `next` must be answered 500, not become an unhandled rejection that
// ends the receiver's process (exit 1). The receiver runs in a process of its own to show it.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BODY, SECRET, SIGNATURE, post } from './http-helpers.js';

describe.each(['throws', 'rejects'])('webhookMiddleware whose next %s', (mode) => {
  it('answers 500 with the shared body and keeps the process serving', async () => {
    const child = fork(new URL('./fixtures/throwing-next-receiver.mjs', import.meta.url), {
      env: { ...process.env, SECRET, NEXT: mode },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let exitCode: number | null = null;
    child.on('exit', (code) => (exitCode = code));
    try {
      const [{ port }] = (await once(child, 'message')) as [{ port: number }];
      const url = `http://127.0.0.1:${port}/`;
      for (let i = 0; i < 2; i++) {
        const response = await post(url, BODY, { 'x-webhook-signature': SIGNATURE });
        expect(response.status).toBe(500);
        expect(response.json()).toEqual({ error: 'internal_error', message: expect.stringMatching(/handler failed/) });
      }
      expect(exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });
});
