// Issue 29, finding 5: the sandbox answered any `Host`, so a web page that rebinds its own name to
// 127.0.0.1 could use the seed's tokens and, with --allow-private-webhooks, make the sandbox POST
// chosen headers to other local services. A request must name the sandbox: an IP address,
// localhost, or a host it was given.
import { afterEach, describe, expect, it } from 'vitest';
import { isSandboxError, type SandboxHandle } from '../src/index.js';
import { rawRequest, receiver, sandbox } from './support.js';

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const portOf = (url: string) => new URL(url).port;

describe('a request naming another host', () => {
  it('is refused with 403 saying how to allow the name, and changes nothing', async () => {
    sb = await sandbox({ behaviour: 'observed' });
    const rx = await receiver(200);
    try {
      const headers = {
        host: `rebound.attacker.example:${portOf(sb.baseUrl)}`,
        authorization: `Bearer ${sb.tokens.all}`,
        'content-type': 'application/json',
      };
      const created = await rawRequest(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        headers,
        body: JSON.stringify({
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: rx.url, webhook_headers: [{ name: 'X-Admin', value: 'yes' }] },
        }),
      });
      expect(created.status).toBe(403);
      const { message } = JSON.parse(created.text);
      expect(message).toContain('"rebound.attacker.example:');
      expect(message).toContain('--allowed-host');
      const listed = await rawRequest(sb.baseUrl, 'GET', '/open/forms/11/integrations', {
        headers: { authorization: `Bearer ${sb.tokens.all}` },
      });
      expect(JSON.parse(listed.text)).toEqual([]);
      for (const path of ['/open/forms/11', '/forms/11/answer', '/__sandbox/reset'])
        expect((await rawRequest(sb.baseUrl, 'GET', path, { headers })).status, path).toBe(403);
    } finally {
      await rx.close();
    }
  });

  it('is answered for its addresses, localhost, its public URL and the names it is given', async () => {
    sb = await sandbox({ allowedHosts: ['Sandbox.Example.Test'], publicUrl: 'https://proxy.example.test' });
    const port = portOf(sb.listenUrl);
    const get = (host: string) =>
      rawRequest(sb!.listenUrl, 'GET', '/open/forms/11', {
        headers: { host, authorization: `Bearer ${sb!.tokens.read}` },
      }).then((r) => r.status);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      '192.168.1.20',
      'sandbox.example.test',
      `sandbox.example.test:${port}`,
      'proxy.example.test',
    ])
      expect(await get(host), host).toBe(200);
    for (const host of ['example.test', 'localhost.attacker.example', 'sandbox.example.test.attacker.example'])
      expect(await get(host), host).toBe(403);
  });

  it('an allowed host that is not a host name is refused at start', async () => {
    for (const bad of ['http://sandbox.test', 'sandbox.test:8080', 'a b', ''])
      await expect(sandbox({ allowedHosts: [bad] })).rejects.toSatisfy(
        (error) => isSandboxError(error) && error.kind === 'invalid_option' && error.message.includes('allowedHosts'),
      );
  });
});
