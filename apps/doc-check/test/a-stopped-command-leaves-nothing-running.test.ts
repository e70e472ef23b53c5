// A printed command stopped once it is ready (a server, `pnpm bench`) is stopped with everything
// it started, also what runs in a process group of its own. Turbo starts each task in one: stopped
// the README test's way, `pnpm bench` once left the benchmark turbo had started running, unseen.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { until } from '@forms-api/test-support';
import { expect, it } from 'vitest';
import { runShell } from './support/shell.js';

/** Listed and not a zombie (the container's init may reap an adopted process late). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

it('stops what the command started in a process group of its own, as turbo starts a task', async () => {
  // setsid moves sleep to a session and process group of its own, out of reach of the group's signal.
  const result = await runShell('setsid sleep 300 & echo "started $!"; wait', {
    cwd: tmpdir(),
    env: process.env as Record<string, string>,
    timeoutMs: 30_000,
    readyWhen: /started \d+/,
  });
  expect(result.ready, result.output).toBe(true);
  const pid = Number(/started (\d+)/.exec(result.output)![1]);
  try {
    await until(`the command's sleep (pid ${pid}) to be stopped`, () => !running(pid), { timeoutMs: 10_000 });
  } finally {
    if (running(pid)) process.kill(pid, 'SIGKILL');
  }
});
