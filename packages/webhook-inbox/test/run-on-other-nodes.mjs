// Runs again, on each other Node the package claims (of 20.19.0, 22 and 24; in `pnpm test`, which
// runs on Node 24, that is 20 and 22), the test files whose outcome rests on the runtime. The
// others test the inbox's own logic against Redis: the same code on every Node, run once.
import { fileURLToPath } from 'node:url';
import { vitestOnOtherNodes } from '@forms-api/runtimes';

const ON_EVERY_NODE = [
  // node:http, fetch's Request and Response, and the Express, Fastify and Hono adapters on them.
  'adapters-queue-verified-deliveries-and-reject-without-touching-redis',
  // Loading the ESM and CommonJS builds side by side.
  'inbox-errors-are-recognised-across-module-copies',
  // Signals, and a worker process ending its work in hand.
  'sigterm-finishes-the-work-in-hand-and-takes-no-more',
  // Timers against a blocked event loop.
  'a-handler-blocking-the-event-loop-loses-its-lock-and-says-so',
  // Stream back-pressure on a pipe.
  'the-cli-output-survives-a-slow-pipe',
].map((name) => `test/${name}.test.ts`);

const failed = vitestOnOtherNodes(fileURLToPath(new URL('..', import.meta.url)), ON_EVERY_NODE);
if (failed > 0) process.exit(1);
