// The one `freePort`: the contract suite (which inlines it, like the rest of this package) and the
// repository's tests and tools (through `@forms-api/test-support`). JavaScript with a declaration
// file, not TypeScript, because the tools load it in plain Node.
import { createServer } from 'node:net';

/**
 * A port nobody listens on now, on 127.0.0.1: the OS picks one for a server on port 0, which is
 * then closed. Another process may take it before the caller does; callers that can, listen on
 * port 0 themselves and read the port back instead.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
