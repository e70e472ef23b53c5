import { defineConfig } from 'vitest/config';

// Every file starts its own redis-server (on a free port, with its own data directory) and its own
// child processes, so files share nothing and run two at a time; each test bounds its waits well
// inside the test timeout (two heavy files side by side take twice as long as one). The chaos run floods the machine with processes and requests:
// it runs alone, after the rest, so that it does not starve a neighbour's 5 s delivery budget.
const CHAOS = 'test/chaos-*.test.ts';
// Sharing nothing, a file can also reuse the modules the file before it loaded in the same worker
// (BullMQ, ioredis, the inbox, prom-client and OpenTelemetry): importing them anew for each of 47
// files cost more CPU than the tests themselves. Spies and global providers are restored by the
// files that set them, and metrics are read per queue name, so no file sees another's.
const shared = { testTimeout: 120_000, hookTimeout: 30_000, isolate: false };

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'inbox', include: ['test/**/*.test.ts'], exclude: [CHAOS] } },
      { test: { ...shared, name: 'chaos', include: [CHAOS], sequence: { groupOrder: 1 } } },
    ],
  },
});
