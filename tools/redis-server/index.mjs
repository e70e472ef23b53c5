// A real redis-server (Debian's; `ensure-debian-package redis-server redis-server` installs it)
// on a free loopback port with its own data directory; stopped, crashed, frozen and restarted on
// demand, and always killed and removed at the end, even when a test fails or the process exits
// early. Each server leads a process group of its own, so killing the group also ends a child it
// forked (an AOF rewrite).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort, until } from '@forms-api/test-support';
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

  // Sentinel reads (and rewrites) a configuration file, which must come first.
  const config = options.config === undefined ? [] : [join(dir, 'redis.conf')];
  if (options.config !== undefined) writeFileSync(config[0], options.config);
  const args = () => [
    ...config,
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    ...(options.config === undefined ? [] : ['--protected-mode', 'no']),
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
        // A sentinel says nothing of readiness; its ID is logged once it listens.
        if (log.includes('Ready to accept connections') || log.includes('Sentinel ID is')) {
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

/** test-support's wait, asking again while a server still refuses (redis-cli fails until it is up). */
const untilUp = (what, check) => until(what, check, { retryErrors: true });

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
        await untilUp(
          'every node of the cluster to say cluster_state:ok, and every replica to be in sync',
          async () => {
            for (const node of nodes.filter((n) => n.running)) {
              if (!(await redisCli(node.port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
              const replication = await redisCli(node.port, 'info', 'replication');
              if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
            }
            const shards = await cluster.masters();
            return shards.length === masters;
          },
        );
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
        await untilUp(`a replica of the master on port ${killed.port} to take over its slots`, async () => {
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

/** @param {import('./index.d.mts').RedisSentinelOptions} [options] */
export async function startRedisSentinel(options = {}) {
  const masterName = options.masterName ?? 'mymaster';
  const downAfterMs = options.downAfterMs ?? 1_000;
  /** @type {Awaited<ReturnType<typeof startRedisServer>>[]} */
  const servers = [];
  /** @type {Awaited<ReturnType<typeof startRedisServer>>[]} */
  const sentinels = [];
  const close = async () => {
    await Promise.all([...sentinels, ...servers].map((server) => server.close()));
  };
  try {
    const primary = await startRedisServer();
    servers.push(primary);
    for (let i = 0; i < (options.replicas ?? 1); i++)
      servers.push(await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] }));
    for (let i = 0; i < (options.sentinels ?? 3); i++) {
      sentinels.push(
        await startRedisServer({
          config: [
            `sentinel monitor ${masterName} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
            `sentinel failover-timeout ${masterName} ${Math.max(3 * downAfterMs, 3_000)}`,
            '',
          ].join('\n'),
          args: ['--sentinel'],
        }),
      );
    }
    const set = {
      masterName,
      servers,
      sentinels,
      seeds: sentinels.map((sentinel) => ({ host: '127.0.0.1', port: sentinel.port })),
      async primary() {
        const answer = await redisCli(sentinels[0].port, 'sentinel', 'get-master-addr-by-name', masterName);
        const port = Number(answer.trim().split('\n')[1]);
        const found = servers.find((server) => server.port === port);
        if (!found) throw new Error(`Sentinel names an unknown primary on port ${port}`);
        return found;
      },
      async waitUntilReady() {
        await untilUp('every sentinel to know the primary, its replicas and the other sentinels', async () => {
          for (const sentinel of sentinels) {
            const info = await redisCli(sentinel.port, 'sentinel', 'master', masterName);
            const field = (name) => Number(info.split('\n')[info.split('\n').indexOf(name) + 1]);
            if (field('num-slaves') < servers.length - 1 || field('num-other-sentinels') < sentinels.length - 1)
              return false;
          }
          for (const server of servers.filter((s) => s.running)) {
            const replication = await redisCli(server.port, 'info', 'replication');
            if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
          }
          return true;
        });
      },
      async waitForPromotion(old) {
        await untilUp(`the sentinels to promote a replica of the primary on port ${old.port}`, async () => {
          for (const sentinel of sentinels) {
            const answer = await redisCli(sentinel.port, 'sentinel', 'get-master-addr-by-name', masterName);
            if (Number(answer.trim().split('\n')[1]) === old.port) return false;
          }
          const promoted = await set.primary();
          return (await redisCli(promoted.port, 'info', 'replication')).includes('role:master');
        });
        return set.primary();
      },
      close,
    };
    await set.waitUntilReady();
    return set;
  } catch (error) {
    await close();
    throw error;
  }
}
