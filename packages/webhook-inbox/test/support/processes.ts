// Test support: receivers and workers as real child processes (the built package, as users run it),
// talking to the test over IPC, and killed at the end whatever happened.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type RedisServer, type RedisServerOptions } from '@forms-api/redis-server';

/** A message from a fixture, stamped with the test's `performance.now()` when it arrived. */
export type FixtureMessage = { at?: number } & (
  | { type: 'ready'; port?: number }
  | { type: 'started'; id: string; submissionId: number; attempt: number; pid: number }
  | { type: 'done'; id: string; submissionId: number; attempt: number; pid: number }
  | { type: 'closed' }
  /** The receiver holds a request. */
  | { type: 'request' }
  /** A line the worker's shutdown printed. */
  | { type: 'log'; line: string }
);

export interface Fixture {
  readonly child: ChildProcess;
  readonly port: number | undefined;
  readonly messages: FixtureMessage[];
  readonly output: () => string;
  /** Resolves with the first message (past or future) that matches. */
  waitFor(match: (message: FixtureMessage) => boolean, timeoutMs?: number): Promise<FixtureMessage>;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

const fixturePath = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

export async function startFixture(
  name: 'receiver.mjs' | 'worker.mjs' | 'throwing-next.mjs',
  env: Record<string, string>,
): Promise<Fixture> {
  const child = fork(fixturePath(name), [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const messages: FixtureMessage[] = [];
  const waiters = new Set<{ match: (m: FixtureMessage) => boolean; resolve: (m: FixtureMessage) => void }>();
  child.on('message', (message: FixtureMessage) => {
    message.at = performance.now();
    messages.push(message);
    for (const waiter of waiters) {
      if (waiter.match(message)) {
        waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );

  const waitFor = (match: (m: FixtureMessage) => boolean, timeoutMs = 15_000) => {
    const seen = messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<FixtureMessage>((resolve, reject) => {
      const waiter = { match, resolve: (m: FixtureMessage) => (clearTimeout(timer), resolve(m)) };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new Error(`${name} (pid ${child.pid}) sent no matching message within ${timeoutMs} ms. Output:\n${output}`),
        );
      }, timeoutMs);
      waiters.add(waiter);
      exited.then((code) => {
        if (!waiters.has(waiter)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`${name} exited (${code}) before sending a matching message. Output:\n${output}`));
      });
    });
  };

  // A fixture that never says it is ready is not handed to the test, so nothing else would stop it.
  const ready = (await waitFor((m) => m.type === 'ready').catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  })) as { port?: number };
  return {
    child,
    port: ready.port,
    messages,
    output: () => output,
    waitFor,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Kills every fixture still running (afterEach/afterAll). */
export async function killAll(fixtures: Iterable<Fixture>): Promise<void> {
  await Promise.all([...fixtures].map((f) => f.kill('SIGKILL')));
}

export interface ProcessWorld {
  /** The file's own redis-server (started before its tests). */
  readonly redis: RedisServer;
  /** Fixture processes the tests started: pushed here, they are killed after the file. */
  readonly fixtures: Fixture[];
}

/**
 * A test file's Redis and processes: a redis-server of its own (with `options`), started before the
 * file's tests, and after them every fixture pushed to `fixtures` killed and the server stopped,
 * whatever happened.
 */
export function processWorldPerFile(options?: RedisServerOptions): ProcessWorld {
  let redis: RedisServer | undefined;
  const fixtures: Fixture[] = [];
  beforeAll(async () => {
    redis = await startRedisServer(options);
  });
  afterAll(async () => {
    await killAll(fixtures);
    await redis?.close();
  });
  return {
    get redis() {
      if (!redis) throw new Error('the Redis of this file is started in beforeAll: use it inside a test');
      return redis;
    },
    fixtures,
  };
}
