// The README-command test whose set-up fails (here redis-server, which it needs for the inbox's
// commands, dies at start) fails at once, saying why, and leaves no reader's checkout behind. It
// used to wait out its 300 s hook bound (its afterAll awaited the close of a receiver it never
// made) and leave the checkout it had installed and built in the temporary folder (up to 1.2 GB).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runShell } from './support/shell.js';

const docCheck = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'readme-test-set-up-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('fails within a minute, naming what failed, and leaves no checkout in the temporary folder', async () => {
  // A redis-server ahead of the real one on PATH, which exits as a broken install would; and a
  // temporary folder of the run's own, to see what it leaves there.
  const bin = join(scratch, 'bin');
  const temporary = join(scratch, 'tmp');
  mkdirSync(bin);
  mkdirSync(temporary);
  writeFileSync(join(bin, 'redis-server'), '#!/bin/sh\necho "redis-server: broken on purpose" >&2\nexit 1\n');
  chmodSync(join(bin, 'redis-server'), 0o755);
  const env: Record<string, string> = {};
  // Not this run's vitest variables: the nested run is a run of its own.
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('VITEST')) env[key] = value;
  env.PATH = `${bin}:${env.PATH}`;
  env.TMPDIR = temporary;
  const run = await runShell('vitest run test/readme-commands-work-as-printed.test.ts', {
    cwd: docCheck,
    env,
    timeoutMs: 60_000,
  });
  expect(run.code, run.output).toBe(1);
  expect(run.output).toContain('redis-server exited with 1 before it was ready');
  expect(readdirSync(temporary).filter((name) => name.startsWith('doc-commands-'))).toEqual([]);
});
