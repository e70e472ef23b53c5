// startSandbox() judges its options before it opens a port: a refused option leaves nothing
// listening and no server handle behind (issue 21 item 8: an invalid publicUrl used to throw
// after listen(), leaving the port open for the life of the process).
import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { freePort } from '@forms-api/redis-server';
import { SandboxError, startSandbox } from '../src/index.js';

const listeningServers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** Whether something can listen on the port (nothing else holds it). */
async function canListenOn(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

test.each(['ftp://sandbox.example.test', 'not a url', '/relative/path'])(
  'publicUrl %j is refused with nothing left listening',
  async (publicUrl) => {
    const port = await freePort();
    const before = listeningServers();
    const refused = await startSandbox({ port, publicUrl }).then(
      (handle) => handle.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused).toMatchObject({ kind: 'invalid_option', context: { publicUrl } });
    expect(listeningServers()).toBe(before);
    expect(await canListenOn(port)).toBe(true);
  },
);

test('a valid publicUrl is the base of what the sandbox writes, without its trailing slash', async () => {
  const handle = await startSandbox({ publicUrl: 'https://sandbox.example.test/', rateLimit: false });
  try {
    expect(handle.baseUrl).toBe('https://sandbox.example.test');
    expect(handle.listenUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await handle.close();
  }
});

// A misspelt option would leave its default in place unseen (`ratelimit: false` would keep the
// limit of 100 a minute on).
test.each([
  [{ ratelimit: false }, 'ratelimit', 'rateLimit'],
  [{ allowPrivateWebhook: true }, 'allowPrivateWebhook', 'allowPrivateWebhooks'],
  [{ behavior: 'observed' }, 'behavior', 'behaviour'],
])(
  '%j is refused by name, with the option it is nearest to, with nothing left listening',
  async (options, option, near) => {
    const port = await freePort();
    const before = listeningServers();
    const refused = await startSandbox({ port, ...options } as never).then(
      (handle) => handle.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused).toMatchObject({ kind: 'invalid_option', context: { option } });
    expect((refused as Error).message).toBe(
      `\`${option}\` is not an option of startSandbox. Did you mean \`${near}\`? The options of startSandbox are behaviour, port, host, publicUrl, allowedHosts, allowPrivateWebhooks, seed, fixedTokens, webhookTimeoutMs, rateLimit, trustedProxies, adminToken, faults, log, now.`,
    );
    expect(listeningServers()).toBe(before);
    expect(await canListenOn(port)).toBe(true);
  },
);
