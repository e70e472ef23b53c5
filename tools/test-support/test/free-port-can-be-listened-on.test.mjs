// freePort gives a port on 127.0.0.1 that a server can then listen on, and a different one each
// time while the first is held.
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { freePort } from '../index.mjs';

const listenOn = (port) =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

it('returns a port a server can listen on, not one already taken', async () => {
  const port = await freePort();
  expect(port).toBeGreaterThan(0);
  const held = await listenOn(port);
  try {
    expect(await freePort()).not.toBe(port);
  } finally {
    held.close();
  }
});
