// Child processes the suite starts (Prism): a free loopback port, start in its own process group,
// wait until it answers, and stop the whole group, also on failure and Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ContractTestsError } from '../errors.js';

// The repository's one freePort (inlined by the build, as everything of @forms-api/internal).
export { freePort } from '@forms-api/internal/free-port';

export interface ManagedProcess {
  readonly pid: number;
  /** Last lines of its output, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Stops a process group; used by stop() and by the exit hook (which must be synchronous). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export function startProcess(command: string, args: string[], label: string): ManagedProcess {
  // detached: the child leads its own process group, so a group kill also ends what it spawned.
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Whatever way this process ends (error, process.exit), do not leave the child behind.
  const onExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);
  if (child.pid === undefined)
    throw new ContractTestsError('start_failed', `${label}: could not start ${command}`, {
      context: { label, command },
    });
  return {
    pid: child.pid,
    output: () => lines.join('\n'),
    async stop() {
      process.removeListener('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls a URL until anything answers (any HTTP status), or fails with the process output. */
export async function waitUntilAnswering(
  url: string,
  proc: ManagedProcess,
  label: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await proc.stop();
  throw new ContractTestsError(
    'start_failed',
    `${label} did not answer on ${url} within ${timeoutMs / 1000} s. Its output:\n${proc.output()}`,
    { context: { label, url, timeoutMs } },
  );
}

/** The Prism CLI entry of the pinned @stoplight/prism-cli, run with this Node. */
export function prismBin(): string {
  const pkgJson = fileURLToPath(import.meta.resolve('@stoplight/prism-cli/package.json'));
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(pkgJson), pkg.bin.prism!);
}
