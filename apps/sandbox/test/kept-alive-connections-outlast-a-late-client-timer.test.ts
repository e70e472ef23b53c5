// A CI run saw a POST of the contract suite answered by no response ("other side closed"): the
// sandbox closed a kept-alive connection after Node's 5 s of idleness just as a client, whose own
// idle timer (the server's hint less a second) had fired late on a loaded machine, sent on it.
// The sandbox keeps idle connections a minute, as a load balancer before the service would, and
// says so in its Keep-Alive hint, which clients such as undici follow.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/index.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false });
});
afterAll(() => sandbox?.close());

it('keeps an idle connection for a minute and tells clients so', async () => {
  const agent = new Agent({ keepAlive: true });
  const hint = await new Promise<string | undefined>((resolve, reject) => {
    const sent = request(`${sandbox.baseUrl}/open/workspaces`, { method: 'POST', agent }, (response) => {
      response.resume();
      resolve(response.headers['keep-alive']?.toString());
    });
    sent.on('error', reject);
    sent.setHeader('content-type', 'application/json');
    sent.end('{"name":"no token"}');
  });
  agent.destroy();
  expect(hint).toBe('timeout=65');
});
