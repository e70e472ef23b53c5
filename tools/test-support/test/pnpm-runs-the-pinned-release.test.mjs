// Tools run pnpm through one function: the pnpm of the task that runs them, or, outside pnpm, the
// release package.json pins (so a new pin is followed everywhere without editing a tool).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { pnpm } from '../index.mjs';

const pinned = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).packageManager;
// A bound for a hang, not a time to meet: npx starts pnpm in seconds alone, more in a loaded lane.
const pnpmStarts = { timeout: 60_000 };

it('runs the pinned release through npx when no pnpm runs this process', pnpmStarts, () => {
  const { npm_execpath: _, ...outsidePnpm } = process.env;
  expect(`pnpm@${pnpm(['--version'], { env: outsidePnpm }).trim()}`).toBe(pinned);
});

it('runs the pnpm that runs this process when there is one', () => {
  // A stand-in for pnpm's entry point: what npm_execpath names is what runs, with the arguments.
  const execpath = new URL('./fixtures/pnpm-stand-in.cjs', import.meta.url).pathname;
  expect(pnpm(['pack', '--json'], { env: { ...process.env, npm_execpath: execpath } })).toBe('ran with pack --json\n');
});

it('throws what pnpm printed when it fails', pnpmStarts, () => {
  let failure;
  try {
    pnpm(['no-such-command-of-pnpm'], { cwd: new URL('..', import.meta.url).pathname });
  } catch (error) {
    failure = error;
  }
  expect(failure?.status).toBeGreaterThan(0);
  expect(`${failure.stdout}${failure.stderr}`).toContain('Command "no-such-command-of-pnpm" not found');
});
