// Issue 30, finding 11: `forms-sandbox` as a new user meets it, as real processes. --help lists
// every option; --version prints the version (every published launcher the same way); a misspelt
// option gets a "did you mean"; a terminal gets a summary, a pipe the JSON line; the request log
// keeps query strings with their secrets redacted; SIGHUP stops it; and killing the `npx` that
// started it stops it too (npx runs it through `sh -c`, which passes no signal on).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const started: ChildProcess[] = [];
/** Run after each test, passed, failed or timed out (a timed-out body never reaches its finally). */
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function run(command: string, args: string[], options: { cwd?: string; detached?: boolean } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
  });

describe('help, version and mistakes', () => {
  it('--help lists every flag the README lists, and the trigger command', async () => {
    const help = run(process.execPath, [CLI, '--help']);
    expect(await help.exited).toBe(0);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Flags'), readme.indexOf('\n## ', readme.indexOf('## Flags') + 1));
    const flags = new Set(section.match(/--[a-z][a-z-]+/g));
    expect(flags.size).toBeGreaterThan(10);
    for (const flag of flags) expect(help.out(), flag).toContain(flag);
    expect(help.out()).toContain('forms-sandbox trigger --to <url>');
  });

  it('--version prints the version of the package of each published command', async () => {
    for (const launcher of [
      'apps/sandbox/bin/forms-sandbox.js',
      'apps/contract-tests/bin/forms-contract.js',
      'packages/webhook-verify/bin/forms-webhook.js',
      'packages/webhook-inbox/bin/forms-webhook-inbox.js',
    ]) {
      const { version } = JSON.parse(
        readFileSync(new URL(`../../../${launcher}/../../package.json`, import.meta.url), 'utf8'),
      );
      const printed = run(process.execPath, [`${REPO}${launcher}`, '--version']);
      expect(await printed.exited, launcher).toBe(0);
      expect(printed.out(), launcher).toBe(`${version}\n`);
    }
  });

  it('answers a misspelt option with the one it means, and exit 2', async () => {
    const misspelt = run(process.execPath, [CLI, '--behavior', 'observed']);
    expect(await misspelt.exited).toBe(2);
    expect(misspelt.err()).toContain('unknown option --behavior; did you mean --behaviour?');
    const far = run(process.execPath, [CLI, '--zzzzzz']);
    expect(await far.exited).toBe(2);
    expect(far.err()).toContain('unknown option --zzzzzz\n');
  });

  it("keeps the lines of Node's own usage message (escaping only what can drive a terminal)", async () => {
    const dashed = run(process.execPath, [CLI, '--webhook-timeout-ms', '-5']);
    expect(await dashed.exited).toBe(2);
    expect(dashed.err()).toContain(
      "argument is ambiguous.\nDid you forget to specify the option argument for '--webhook-timeout-ms'?\n",
    );
    expect(dashed.err()).not.toContain('\\x0a');
  });

  it('takes --rate-limit 0 for no limit, as --no-rate-limit and the contract suite do', async () => {
    const sandbox = run(process.execPath, [CLI, '--json', '--port', '0', '--rate-limit', '0']);
    const info = JSON.parse(await firstLine(sandbox.child));
    const auth = { headers: { authorization: `Bearer ${info.tokens.all}`, accept: 'application/json' } };
    // More than the service's 100 a minute, every one answered.
    const statuses = await Promise.all(
      Array.from({ length: 120 }, async () => (await fetch(`${info.baseUrl}/open/forms/11`, auth)).status),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    sandbox.child.kill('SIGTERM');
    await sandbox.exited;
  });
});

describe('what it prints of what it was given', () => {
  it('escapes a control character of a value it refuses (a seed fixture or a pasted argument may hold one)', async () => {
    const refused = run(process.execPath, [CLI, '--behaviour', '\u001b]0;pwned\u0007\u001b[2Jobserved']);
    expect(await refused.exited).toBe(2);
    expect(refused.err()).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(refused.err()).toContain('\\x1b]0;pwned\\x07\\x1b[2Jobserved');
  });
});

describe('what it prints', () => {
  it('a summary on a terminal, the JSON line with --json there', async () => {
    // `script` gives the command a pseudo-terminal as stdout.
    const onTty = run('script', ['-qfec', `${process.execPath} ${CLI} --port 0`, '/dev/null']);
    const summary = await new Promise<string>((resolve) => {
      onTty.child.stdout!.on('data', () => onTty.out().includes('Ctrl-C stops it') && resolve(onTty.out()));
    });
    expect(summary).toMatch(/forms-sandbox \(contract behaviour\) listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(summary).toMatch(/ all +101\|/);
    expect(summary).toContain('11 contact-us-a1b2c3');
    onTty.child.kill('SIGTERM');
    const json = run('script', ['-qfec', `${process.execPath} ${CLI} --port 0 --json`, '/dev/null']);
    const line = await firstLine(json.child);
    expect(JSON.parse(line).baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('logs each request with its query string, credential-like values redacted', async () => {
    const sandbox = run(process.execPath, [CLI, '--port', '0']);
    const info = JSON.parse(await firstLine(sandbox.child));
    const auth = { headers: { authorization: `Bearer ${info.tokens.read}` } };
    const listed = await (await fetch(`${info.baseUrl}/open/forms/16/submissions?per_page=1&search=a`, auth)).json();
    const fileUrl = JSON.stringify(listed.data).match(/"file_url":"([^"]+)"/)![1]!;
    const signature = new URL(fileUrl).searchParams.get('signature')!;
    expect((await fetch(fileUrl)).status).toBe(200);
    const exit = sandbox.exited;
    sandbox.child.kill('SIGHUP');
    expect(await exit).toBe(0);
    expect(sandbox.err()).toContain('GET /open/forms/16/submissions?per_page=1&search=a -> 200');
    expect(sandbox.err()).toMatch(
      /GET \/open\/forms\/16\/submissions\/file\/[^?]+\?expires=\d+&signature=\[REDACTED\] -> 200/,
    );
    expect(sandbox.err()).not.toContain(signature);
    expect(sandbox.err()).toContain('SIGHUP: shutting down');
  });
});

describe('started by npx', () => {
  it('stops when the npx command is killed', async () => {
    // A project with the command installed, as `npm install @forms-api/sandbox` links it.
    const project = mkdtempSync(join(tmpdir(), 'forms-sandbox-npx-'));
    writeFileSync(join(project, 'package.json'), '{"name":"npx-user","private":true}');
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(
      fileURLToPath(new URL('../bin/forms-sandbox.js', import.meta.url)),
      join(project, 'node_modules', '.bin', 'forms-sandbox'),
    );
    cleanups.push(() => rmSync(project, { recursive: true, force: true }));
    // Its own process group, so that the cleanup reaches a sandbox npx left behind.
    const npx = run('npx', ['--offline', '--no', '--', 'forms-sandbox', '--port', '0'], {
      cwd: project,
      detached: true,
    });
    cleanups.unshift(() => {
      try {
        process.kill(-npx.child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    });
    const info = JSON.parse(await firstLine(npx.child));
    expect((await fetch(`${info.baseUrl}/open/workspaces/1/forms`)).status).toBe(401);
    const closed = new Promise<void>((resolve) => npx.child.stdout!.once('close', resolve));
    npx.child.kill('SIGTERM');
    // stdout closes when the last process holding it, the sandbox, has exited.
    await closed;
    await expect(fetch(`${info.baseUrl}/open/workspaces/1/forms`)).rejects.toThrow();
  }, 30_000);
});
