// Test support: one inbox world on a real Redis (tools/redis-server): the receiver served over HTTP
// on a port chosen at run time, its workers, a BullMQ queue and a raw client to inspect it, and the
// CLI pointed at it; ready when returned (the inbox has connected), closed in reverse by `close()`.
import { createServer, type RequestListener, type Server } from 'node:http';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { listen, until } from '@forms-api/test-support';
import { inboxMiddleware } from '../../src/adapters/node.js';
import { runInboxCli } from '../../src/cli.js';
import {
  createInbox,
  createInboxWorker,
  inboxQueuePrefix,
  type Inbox,
  type InboxOptions,
  type InboxWorker,
  type InboxWorkerOptions,
} from '../../src/index.js';
import { SECRET } from './deliveries.js';

/** A worker's options; the world fills in its Redis and queue. */
export type WorldWorkerOptions = Omit<InboxWorkerOptions, 'connection' | 'queue'>;

export interface InboxWorldOptions {
  /** The BullMQ queue the receiver, the workers and the CLI share. */
  queue: string;
  /** The receiver's options beyond its Redis and queue; `secret` defaults to the test SECRET. */
  inbox?: Partial<Omit<InboxOptions, 'connection' | 'queue'>>;
  /** A worker started with the world; without it none runs until `startWorker`. */
  worker?: WorldWorkerOptions;
  /** The path `url` names on the receiver's server. Default `/`. */
  path?: string;
  /** What the HTTP server runs, given the receiver's middleware. Default: the receiver alone. */
  serve?: (receive: RequestListener) => RequestListener;
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export interface InboxWorld {
  readonly redis: RedisServer;
  readonly inbox: Inbox;
  /** The worker started with the world (`options.worker`); undefined without it. */
  readonly worker: InboxWorker | undefined;
  /** A BullMQ queue on the world's queue, to look at jobs (opened on first use). */
  readonly queue: Queue;
  /** A plain Redis client on the world's Redis (opened on first use). */
  readonly raw: Redis;
  /** `http://127.0.0.1:<port>`: the receiver's server. */
  readonly base: string;
  /** Where deliveries are posted: `base` + `options.path`. */
  readonly url: string;
  /** Starts one more worker on the world's queue; `close()` closes it. */
  startWorker(options: WorldWorkerOptions): InboxWorker;
  /** Runs `forms-webhook-inbox <args> --redis <the world's> --queue <the world's>`, capturing its lines. */
  cli(...args: string[]): Promise<CliRun>;
  /** Closes the server, the workers, the inbox, the inspectors and Redis, in that order. */
  close(): Promise<void>;
}

export async function startInboxWorld(options: InboxWorldOptions): Promise<InboxWorld> {
  const name = options.queue;
  const workers: InboxWorker[] = [];
  let queue: Queue | undefined;
  let raw: Redis | undefined;
  let server: Server | undefined;
  let inbox: Inbox | undefined;
  const redis = await startRedisServer();

  const startWorker = (workerOptions: WorldWorkerOptions) => {
    const worker = createInboxWorker({ connection: redis.url, queue: name, ...workerOptions });
    workers.push(worker);
    return worker;
  };
  const close = async () => {
    if (server) await new Promise((resolve) => server!.close(resolve));
    await Promise.all(workers.map((worker) => worker.close()));
    await inbox?.close();
    await queue?.close();
    raw?.disconnect();
    await redis.close();
  };

  try {
    inbox = createInbox({ connection: redis.url, secret: SECRET, queue: name, ...options.inbox });
    const worker = options.worker ? startWorker(options.worker) : undefined;
    const receive = inboxMiddleware(inbox);
    const listening = createServer(options.serve ? options.serve(receive) : receive);
    server = listening;
    const { url: base } = await listen(listening);
    const ready = inbox;
    await until('the inbox to connect', async () => (await ready.health()).ok);
    return {
      redis,
      inbox: ready,
      worker,
      get queue() {
        return (queue ??= new Queue(name, {
          connection: { host: '127.0.0.1', port: redis.port },
          prefix: inboxQueuePrefix(name),
        }));
      },
      get raw() {
        return (raw ??= new Redis(redis.port, '127.0.0.1'));
      },
      base,
      url: `${base}${options.path ?? '/'}`,
      startWorker,
      async cli(...args) {
        let out = '';
        let err = '';
        const code = await runInboxCli([...args, '--redis', redis.url, '--queue', name], {
          out: (line) => (out += `${line}\n`),
          err: (line) => (err += `${line}\n`),
        });
        return { code, out, err };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
