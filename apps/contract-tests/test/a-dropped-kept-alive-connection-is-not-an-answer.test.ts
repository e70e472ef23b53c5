// CI saw `listWorkspaceForms › documented 401: no response (TypeError: fetch failed)` against Prism
// on a loaded machine: the request went out on a kept-alive socket the server had just closed, so
// no answer came and the check failed on nothing the tenant said. A safe request (GET) is sent
// once more on a new connection; a write is reported, since it may have reached the service, with
// the cause the bare `fetch failed` hid.
import { createServer, type Server } from 'node:http';
import { listen } from '@forms-api/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient, ExchangeRecorder } from '../src/targets/http-client.js';

describe('a kept-alive connection the tenant drops before answering', () => {
  let server: Server;
  let baseUrl: string;
  let dropNext = false;
  const received: { line: string; port: number | undefined; dropped: boolean }[] = [];

  beforeAll(async () => {
    // Answers 401; when told to, closes the connection of the next request without a word, as a
    // server does whose keep-alive timeout closed the socket as the request arrived.
    server = createServer((req, res) => {
      const dropped = dropNext;
      received.push({ line: `${req.method} ${req.url}`, port: req.socket.remotePort, dropped });
      if (dropped) {
        dropNext = false;
        req.socket.destroy();
        return;
      }
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthenticated."}');
    });
    ({ url: baseUrl } = await listen(server));
  });

  beforeEach(() => {
    received.length = 0;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is sent again on a new connection for a GET, and the answer is what gets judged', async () => {
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, recorder });
    await client.GET('/open/workspaces/{workspaceId}/forms', { params: { path: { workspaceId: 1 } } });
    dropNext = true;
    const { response } = await client.GET('/open/workspaces/{workspaceId}/forms', {
      params: { path: { workspaceId: 1 } },
    });
    expect(response.status).toBe(401);
    expect(recorder.last()).toMatchObject({ status: 401 });
    expect(recorder.last()?.transportError).toBeUndefined();
    expect(received.map((r) => r.line)).toEqual(Array(3).fill('GET /open/workspaces/1/forms'));
    expect(received.map((r) => r.dropped)).toEqual([false, true, false]);
    expect(received[2]!.port, 'sent again on a new connection').not.toBe(received[1]!.port);
  });

  it('is reported, with its cause, for a POST (sending it again could act twice)', async () => {
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, recorder });
    await client.GET('/open/workspaces/{workspaceId}/forms', { params: { path: { workspaceId: 1 } } });
    dropNext = true;
    await expect(
      client.POST('/open/forms/{form}/integrations', {
        params: { path: { form: 1 } },
        body: {
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: 'https://example.com/hook' },
        } as never,
      }),
    ).rejects.toThrow();
    expect(recorder.last()?.status).toBeUndefined();
    expect(recorder.last()?.transportError).toMatch(/^TypeError: fetch failed \((UND_ERR_SOCKET|ECONNRESET): /);
    expect(received.map((r) => r.line)).toEqual(['GET /open/workspaces/1/forms', 'POST /open/forms/1/integrations']);
  });

  it('is reported for a PUT too: the update may have reached the service, which re-runs its side effects', async () => {
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({ baseUrl, recorder });
    await client.GET('/open/workspaces/{workspaceId}/forms', { params: { path: { workspaceId: 1 } } });
    dropNext = true;
    await expect(
      client.PUT('/open/forms/{form}/integrations/{integrationid}', {
        params: { path: { form: 1, integrationid: 2 } },
        body: {
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: 'https://example.com/hook' },
        } as never,
      }),
    ).rejects.toThrow();
    expect(recorder.last()?.transportError).toMatch(/^TypeError: fetch failed \((UND_ERR_SOCKET|ECONNRESET): /);
    expect(received.map((r) => r.line)).toEqual(['GET /open/workspaces/1/forms', 'PUT /open/forms/1/integrations/2']);
  });
});
