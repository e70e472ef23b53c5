// `forms-sandbox` (dist/cli.js) as a user runs it: one JSON line on stdout (with the admin token),
// logs on stderr without tokens, a working API, a clean exit on SIGTERM, and exit 2 on a bad flag. (How fast it starts is
// not asserted here: a timed unit test on shared cores measures the neighbours.)
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const started: ChildProcess[] = [];
/** Starts the CLI; whatever a test leaves running is killed after it, pass or fail. */
function cli(...args: string[]): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  return child;
}
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

it('prints its JSON line, serves, and exits 0 on SIGTERM', async () => {
  const child = cli('--port', '0', '--allow-private-webhooks');
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const info = JSON.parse(line);
  expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(Object.keys(info.tokens).sort()).toEqual([
    'all',
    'editor',
    'integrations',
    'none',
    'outsider',
    'read',
    'readonly',
    'withoutIntegrations',
    'withoutRead',
    'withoutWrite',
    'workspacesRead',
    'workspacesWrite',
    'write',
  ]);
  expect(info.adminToken).toMatch(/^sandbox_admin_[\w-]{32}$/);
  expect(info.workspaces.map((w: { plan: string }) => w.plan)).toEqual(['pro', 'free', 'pro']);
  const response = await fetch(`${info.baseUrl}/open/workspaces/1/forms`, {
    headers: { authorization: `Bearer ${info.tokens.all}` },
  });
  expect(response.status).toBe(200);
  const reset = await fetch(`${info.baseUrl}/__sandbox/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.adminToken}` },
  });
  expect(reset.status).toBe(200);
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exit).toBe(0);
  expect(stderr).toMatch(/GET \/open\/workspaces\/1\/forms -> 200/);
  for (const token of [...(Object.values(info.tokens) as string[]), info.adminToken])
    expect(stderr).not.toContain(token);
});

it('refuses a malformed flag with its usage and exit code 2', async () => {
  const child = cli('--trusted-proxies', 'two');
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
  expect(stderr).toMatch(/--trusted-proxies must be a whole number \(got two\)/);
  expect(stderr).toMatch(/Usage: forms-sandbox/);
});
