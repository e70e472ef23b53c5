// Runs a documented shell command or script with bash, in its own process group, and stops it with
// everything it started (pnpm, turbo, a server). Either to its end, or until its output shows it
// is ready (a long-running server, an interactive prompt), within a bound.
import { spawn } from 'node:child_process';
import pidtree from 'pidtree';

export interface ShellResult {
  readonly code: number | null;
  readonly output: string;
  /** True when it was stopped after printing what was awaited. */
  readonly ready: boolean;
}

export interface ShellOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  /** Stop (SIGTERM to the group) as soon as the output matches, and report `ready`. */
  readonly readyWhen?: RegExp;
  /** Called once ready, before the stop: e.g. fetch the URL the server printed. */
  readonly whileReady?: (output: string) => Promise<void>;
}

const groups = new Set<number>();
process.once('exit', () => {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
});

function killProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

const killGroup = (pid: number, signal: NodeJS.Signals) => killProcess(-pid, signal);

export function runShell(script: string, options: ShellOptions): Promise<ShellResult> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid!;
  groups.add(pid);
  let output = '';
  let ready = false;
  let readyWork: Promise<void> | undefined;
  return new Promise((resolve, reject) => {
    const stop = async () => {
      // The group alone is not enough: turbo runs each task in a process group of its own, and a
      // stopped `pnpm bench` once left its benchmark running. Every process bash started is listed
      // before any is signalled (once bash is gone, init adopts its children).
      const tree = await pidtree(pid).catch(() => []);
      const signal = (name: NodeJS.Signals) => {
        killGroup(pid, name);
        for (const started of tree) killProcess(started, name);
      };
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), 5_000).unref();
    };
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `\`${script}\` did not ${options.readyWhen ? `print ${options.readyWhen}` : 'finish'} within ${options.timeoutMs} ms; output:\n${output}`,
        ),
      );
    }, options.timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (options.readyWhen && !ready && options.readyWhen.test(output)) {
        ready = true;
        readyWork = (options.whileReady?.(output) ?? Promise.resolve()).finally(stop);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', async (code) => {
      clearTimeout(timer);
      groups.delete(pid);
      try {
        await readyWork;
        resolve({ code, output, ready });
      } catch (error) {
        reject(error);
      }
    });
  });
}
