// A real redis-server (Debian's, see bin/ensure-redis-server) on a free loopback port with its own
// data directory; stopped, crashed and restarted on demand, and always killed and removed at the
// end, even when a test fails or the process exits early.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '@forms-api/test-support';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

// The one freePort of the repository, re-exported for the tests that already take it from here.
export { freePort };

/** @param {import('./index.d.mts').RedisServerOptions} [options] */
export async function startRedisServer(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'forms-api-redis-'));
  let port = await freePort();
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;

  const args = () => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendonly ? 'yes' : 'no',
    '--appendfsync',
    options.appendfsync ?? 'everysec',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--logfile',
    '',
  ];

  async function launch() {
    const proc = spawn('redis-server', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(proc);
    let log = '';
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${log}`)), 10_000);
      const fail = (/** @type {Error} */ error) => {
        clearTimeout(timer);
        proc.kill('SIGKILL');
        reject(error);
      };
      proc.stdout.on('data', (chunk) => {
        log += chunk.toString();
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr.on('data', (chunk) => (log += chunk.toString()));
      proc.once('exit', (code) =>
        fail(Object.assign(new Error(`redis-server exited with ${code} before it was ready:\n${log}`), { log })),
      );
      proc.once('error', fail);
    });
    proc.once('exit', () => live.delete(proc));
    child = proc;
  }

  // Another process may take the free port between the check and the start: try a few ports.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 5 || !String(error?.log ?? '').includes('Address already in use')) throw error;
      port = await freePort();
    }
  }

  async function stop(signal = 'SIGTERM') {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', () => resolve(undefined)));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    live.delete(proc);
  }

  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    dir,
    get running() {
      return child !== undefined;
    },
    start: launch,
    stop,
    async close() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
