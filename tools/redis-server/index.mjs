// A real redis-server (Debian's, see bin/ensure-redis-server) on a free loopback port with its own
// data directory; stopped, crashed, frozen and restarted on demand, and always killed and removed
// at the end, even when a test fails or the process exits early. Each server leads a process group
// of its own, so killing the group also ends a child it forked (an AOF rewrite).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '@forms-api/test-support';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function killGroup(child, signal) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

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
    ...(options.args ?? []),
  ];

  async function launch() {
    const proc = spawn('redis-server', args(), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    live.add(proc);
    let log = '';
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${log}`)), 10_000);
      const fail = (/** @type {Error} */ error) => {
        clearTimeout(timer);
        killGroup(proc, 'SIGKILL');
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
    // A frozen server takes no SIGTERM until it runs again.
    killGroup(proc, 'SIGCONT');
    killGroup(proc, signal);
    const timer = setTimeout(() => killGroup(proc, 'SIGKILL'), 10_000);
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
    pause() {
      if (child) killGroup(child, 'SIGSTOP');
    },
    resume() {
      if (child) killGroup(child, 'SIGCONT');
    },
    async close() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** @param {number} port @param {string[]} args @returns {Promise<string>} */
function redisCli(port, ...args) {
  return new Promise((resolve, reject) =>
    execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** Polls `check` every 50 ms until it holds, or fails after `timeoutMs` saying what was awaited. */
async function until(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? ` (${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** @param {import('./index.d.mts').RedisClusterOptions} [options] */
export async function startRedisCluster(options = {}) {
  const masters = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1_000;
  /** @type {Awaited<ReturnType<typeof startRedisServer>>[]} */
  const nodes = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => node.close()));
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      nodes.push(
        await startRedisServer({
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            String(nodeTimeoutMs),
            // A replica is promoted however long it was cut off: the tests kill masters on purpose.
            '--cluster-replica-validity-factor',
            '0',
          ],
        }),
      );
    }
    await redisCli(
      nodes[0].port,
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    );
    const cluster = {
      nodes,
      seeds: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
      async waitUntilReady() {
        await until('every node of the cluster to say cluster_state:ok, and every replica to be in sync', async () => {
          for (const node of nodes.filter((n) => n.running)) {
            if (!(await redisCli(node.port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
            const replication = await redisCli(node.port, 'info', 'replication');
            if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
          }
          const shards = await cluster.masters();
          return shards.length === masters;
        });
      },
      async masters() {
        const live = nodes.find((n) => n.running);
        if (!live) return [];
        const lines = (await redisCli(live.port, 'cluster', 'nodes')).trim().split('\n');
        const ports = lines
          .map((line) => line.split(' '))
          .filter((fields) => fields[2].includes('master') && !fields[2].includes('fail'))
          .map((fields) => Number(fields[1].split(':')[1].split('@')[0]));
        return nodes.filter((node) => node.running && ports.includes(node.port));
      },
      async masterFor(key) {
        const live = nodes.find((n) => n.running);
        const slot = Number((await redisCli(live.port, 'cluster', 'keyslot', key)).trim());
        for (const master of await cluster.masters()) {
          const lines = (await redisCli(master.port, 'cluster', 'nodes')).trim().split('\n');
          const mine = lines.find((line) => line.split(' ')[2].includes('myself'));
          for (const range of mine.split(' ').slice(8)) {
            const [from, to = from] = range.split('-').map(Number);
            if (slot >= from && slot <= to) return master;
          }
        }
        throw new Error(`No live master serves slot ${slot} of ${key}`);
      },
      async waitForFailover(killed) {
        await until(`a replica of the master on port ${killed.port} to take over its slots`, async () => {
          const live = nodes.find((n) => n.running);
          const lines = (await redisCli(live.port, 'cluster', 'nodes')).trim().split('\n');
          const line = lines.find((l) => l.split(' ')[1].startsWith(`127.0.0.1:${killed.port}@`));
          return line !== undefined && / (master|slave),fail /.test(` ${line.split(' ')[2]} `);
        });
        await cluster.waitUntilReady();
      },
      close,
    };
    await cluster.waitUntilReady();
    return cluster;
  } catch (error) {
    await close();
    throw error;
  }
}
