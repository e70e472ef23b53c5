// One benchmark receiver: a node:cluster of N processes sharing one port, each running either the
// inbox (verify, store in Redis, 202) or the plain webhook-verify listener (verify, 202, no Redis).
// Prints "ready <port>" once every process listens. Usage: receiver.mjs inbox|plain N [redis-url]
import cluster from 'node:cluster';
import { createServer } from 'node:http';

const [mode, count, redisUrl] = process.argv.slice(2);
const SECRET = process.env.BENCH_SECRET;

if (cluster.isPrimary) {
  let listening = 0;
  let port;
  for (let i = 0; i < Number(count); i++) cluster.fork();
  cluster.on('listening', (_worker, address) => {
    port = address.port;
    if (++listening === Number(count)) console.log(`ready ${port}`);
  });
  cluster.on('exit', (_worker, code, signal) => {
    if (signal !== 'SIGTERM' && code !== 0) console.error(`receiver process exited (${signal ?? code})`);
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers)) worker.kill('SIGTERM');
    process.exit(0);
  });
} else {
  let listener;
  let close = async () => {};
  if (mode === 'inbox') {
    const { createInbox } = await import('../dist/index.js');
    const { inboxMiddleware } = await import('../dist/adapters/node.js');
    const inbox = createInbox({ connection: redisUrl, secret: SECRET, queue: 'bench' });
    while (!(await inbox.health()).ok) await new Promise((resolve) => setTimeout(resolve, 20));
    listener = inboxMiddleware(inbox);
    close = () => inbox.close();
  } else {
    const { createWebhookListener } = await import('@forms-api/webhook-verify/node');
    listener = createWebhookListener({ secret: SECRET }, (_payload, _req, res) => void res.writeHead(202).end());
  }
  const server = createServer(listener);
  // Port 0 in every cluster process: the primary hands them all the same port.
  server.listen(0, '127.0.0.1');
  process.on('SIGTERM', async () => {
    server.close();
    await close();
    process.exit(0);
  });
}
