// `pnpm bench`: the topology chaos runs at full size: 5,000 deliveries through 3 receivers and 3
// workers while the Sentinel primary hangs (SIGSTOP, later resumed) and while the Redis Cluster
// master of the queue is killed and its replica promoted. The same test files `pnpm test` runs
// with 300 deliveries; each prints the longest refusal window and fails on one lost or run twice.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = [
  'test/behind-sentinel-receivers-follow-a-promotion-when-the-primary-hangs.test.ts',
  'test/the-inbox-runs-on-a-redis-cluster-through-a-master-failover.test.ts',
];
const child = spawn('npx', ['vitest', 'run', ...files, '--testTimeout', '1800000'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    TOPOLOGY_DELIVERIES: process.env.TOPOLOGY_DELIVERIES ?? '5000',
    TOPOLOGY_PROCESSES: process.env.TOPOLOGY_PROCESSES ?? '3',
  },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
