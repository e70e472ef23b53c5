// Support for tests and tools that start real servers: the one `freePort`. Private to the
// repository; published packages keep their own code (they cannot depend on a private package).
import { createServer } from 'node:net';

/**
 * A port nobody listens on now, on 127.0.0.1: the OS picks one for a server on port 0, which is
 * then closed. Another process may take it before the caller does; callers that can, listen on
 * port 0 themselves and read the port back instead.
 */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
