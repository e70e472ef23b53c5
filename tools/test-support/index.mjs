// Support for tests and tools that start real servers. `freePort` is the one of
// `@forms-api/internal`, which the contract suite inlines too: written once for both.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export { freePort } from '@forms-api/internal/free-port';

/**
 * Starts `server` (a node:http or node:net server, not yet listening) on 127.0.0.1 at a port the
 * system picks. Resolves with its origin URL, its port, and `close()`, which ends open connections
 * (a kept-alive one would hold the server open) and resolves once it is closed.
 */
export async function listen(server) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The pnpm release the repository pins: its package.json's `packageManager` (`pnpm@x.y.z`). */
const PINNED_PNPM = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).packageManager;

/**
 * Runs pnpm and returns what it printed on standard output: the pnpm that runs this process (a pnpm
 * script or task sets `npm_execpath` in `env`), or else the pinned release through npx. A failure
 * throws execFileSync's error, which holds both streams.
 */
export function pnpm(args, { cwd, env = process.env } = {}) {
  const execpath = env.npm_execpath;
  const [command, ...prefix] = execpath?.includes('pnpm')
    ? [process.execPath, execpath]
    : ['npx', '--yes', PINNED_PNPM];
  return execFileSync(command, [...prefix, ...args], {
    cwd,
    env: { ...env, npm_config_update_notifier: 'false' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Waits for a condition instead of a fixed sleep: resolves with the first truthy answer of `check`,
 * asked every `everyMs`; fails naming `what` after `timeoutMs`. A check that throws fails the wait,
 * unless `retryErrors` is set (a server still starting refuses the question): then it is asked
 * again, and the last error is named if time runs out.
 */
export async function until(what, check, { timeoutMs = 30_000, everyMs = 50, retryErrors = false } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const answer = await check();
      if (answer) return answer;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${lastError ? ` (last error: ${lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
