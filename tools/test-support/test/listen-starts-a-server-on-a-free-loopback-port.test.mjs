// listen starts a server on 127.0.0.1 at a port the system picks, and its close() ends the
// connections a client keeps alive, which would otherwise hold the server open.
import { Agent, createServer, request } from 'node:http';
import { expect, it } from 'vitest';
import { listen } from '../index.mjs';

it('serves on 127.0.0.1 at the port it names, and closes with a kept-alive connection open', async () => {
  const server = createServer((_req, res) => res.end('ok'));
  const { url, port, close } = await listen(server);
  expect(url).toBe(`http://127.0.0.1:${port}`);
  const agent = new Agent({ keepAlive: true });
  const answer = await new Promise((resolve, reject) =>
    request(url, { agent }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end(),
  );
  expect(answer).toBe('ok');
  await close();
  expect(server.listening).toBe(false);
  agent.destroy();
});
