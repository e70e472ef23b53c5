// Runs a sample file the way a reader would: a script with tsx, a shell line with bash, a server
// until it listens, a module by importing it. Every process is bounded in time and killed at the
// end, even when the test fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { until } from '@forms-api/test-support';

// tsx's loader on Node's own command line (`node --import tsx file.ts`, as tsx documents it): one
// process per script, which a stop signals directly. The `tsx` command adds a shell shim and a Node
// parent that runs the script in a second Node: 0.83 CPU-s a script against 0.61 here.
const TSX_RUN = ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
export const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function commandFor(file: string): [string, string[]] {
  return file.endsWith('.sh')
    ? ['bash', ['-euo', 'pipefail', join(SAMPLES, file)]]
    : [process.execPath, [...TSX_RUN, join(SAMPLES, file)]];
}

/** Runs a sample to its end; fails after `timeoutMs`. */
export function runToEnd(
  file: string,
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Finished> {
  const [command, args] = commandFor(file);
  return runCommand(command, args, file, env, options);
}

/** Runs a TypeScript file of the tests (a driver) with tsx, like a sample. */
export function runTsx(
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Finished> {
  return runCommand(process.execPath, [...TSX_RUN, ...args], args[0]!, env, options);
}

function runCommand(
  command: string,
  args: string[],
  file: string,
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number },
): Promise<Finished> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    cwd: options.cwd ?? SAMPLES,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${file} did not finish within ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Running {
  readonly output: () => { stdout: string; stderr: string };
  /** Resolves when the output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Starts a long-running sample (a server, a worker). */
export function start(file: string, env: Record<string, string>): Running {
  const [command, args] = commandFor(file);
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    cwd: SAMPLES,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const onData = () => watchers.forEach((w) => w());
  child.stdout!.on('data', (chunk: Buffer) => ((stdout += chunk), onData()));
  child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk), onData()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => (live.delete(child), resolve(code))),
  );
  return {
    output: () => ({ stdout, stderr }),
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(stdout)) {
            watchers.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(
            new Error(`${file} did not print ${pattern} within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
          );
        }, timeoutMs);
        watchers.add(check);
        void exited.then((code) => {
          if (!watchers.has(check)) return;
          watchers.delete(check);
          clearTimeout(timer);
          reject(
            new Error(`${file} exited with ${code} before printing ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`),
          );
        });
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Resolves once something accepts connections on the port. */
export async function listening(port: number): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  await until(`something listening on 127.0.0.1:${port}`, accepts, { everyMs: 100 });
}
