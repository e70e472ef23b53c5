// Test support: a real redis-server (Debian's, see scripts/ensure-redis-server.sh) on a free
// loopback port with its own data directory; stopped, crashed and restarted on demand, and always
// killed and removed at the end, even when a test fails or the test process exits early.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerOptions {
  /** Append-only file persistence. Default off (nothing survives a restart). */
  appendonly?: boolean;
  /** `always` makes Redis fsync before it answers a write. Default `everysec`. */
  appendfsync?: 'always' | 'everysec';
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  readonly running: boolean;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** SIGTERM: Redis shuts down cleanly (flushes the AOF). SIGKILL: a crash. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-inbox-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;

  const args = () => [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', dir,
    '--save', '',
    '--appendonly', options.appendonly ? 'yes' : 'no',
    '--appendfsync', options.appendfsync ?? 'everysec',
    '--maxmemory-policy', 'noeviction',
    '--daemonize', 'no',
    '--logfile', '',
  ];

  async function launch(): Promise<void> {
    const proc = spawn('redis-server', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(proc);
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${log}`)), 10_000);
      const fail = (error: Error) => {
        clearTimeout(timer);
        proc.kill('SIGKILL');
        reject(error);
      };
      proc.stdout!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      proc.once('exit', (code) => fail(Object.assign(new Error(`redis-server exited with ${code} before it was ready:\n${log}`), { log })));
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
      if (attempt >= 5 || !String((error as { log?: string }).log ?? '').includes('Address already in use')) throw error;
      port = await freePort();
    }
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
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
