// ensure-debian-package leaves an installed package alone, and without root says how to install a
// missing one instead of trying. (Installing is proved where it matters: CI starts on a machine
// without Chromium or redis-server.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = readFileSync(fileURLToPath(new URL('../bin/ensure-debian-package', import.meta.url)));
/**
 * Runs the script, as nobody when this process is root, so that it never runs apt-get here. Bash
 * reads it from stdin, in /: nobody may not be allowed into the checkout's folders.
 */
const run = (...args) => {
  const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const [command, ...rest] = [...asNobody, 'bash', '-s', '--', ...args];
  return spawnSync(command, rest, { input: script, cwd: '/', encoding: 'utf8' });
};

it('says an installed package is installed, with its version', () => {
  const result = run('coreutils', 'ls');
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^ensure-debian-package: coreutils is installed \(ls \(GNU coreutils\) [\d.]+\)$/m);
});

it('without root, names the command that is missing and the apt-get line that installs it', () => {
  const result = run('forms-api-no-such-package', 'forms-api-no-such-command');
  expect(result.status).toBe(1);
  expect(result.stderr).toBe(
    'ensure-debian-package: forms-api-no-such-command is missing; run as root: ' +
      'apt-get update && apt-get install -y forms-api-no-such-package\n',
  );
});

it('prints its usage when it is not given a package and a command', () => {
  const result = run('chromium');
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/^usage: ensure-debian-package <debian package> <command it provides>/);
});
