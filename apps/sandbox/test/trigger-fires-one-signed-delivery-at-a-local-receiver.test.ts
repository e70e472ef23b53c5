// Issue 30, finding 7: `forms-sandbox trigger --to <url>` fires one real, signed delivery at a
// receiver on your machine: on a sandbox of its own, or on a running one (--base-url, --token),
// through the API; it prints what was sent and what the receiver answered, and exits 1 when the
// receiver refused.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { verify } from '@forms-api/webhook-verify';
import { afterEach, describe, expect, it } from 'vitest';
import { call, receiver, sandbox } from './support.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function trigger(...args: string[]) {
  const child = spawn(process.execPath, [CLI, 'trigger', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('forms-sandbox trigger', () => {
  it('on a sandbox of its own: one delivery, signed with the secret it prints', async () => {
    const rx = await receiver(200);
    cleanups.push(rx.close);
    const { code, stdout, stderr } = await trigger('--to', rx.url);
    expect(code, stderr).toBe(0);
    expect(rx.deliveries).toHaveLength(1);
    const secret = /Signing secret: (\S+)/.exec(stdout)![1]!;
    const delivery = rx.deliveries[0]!;
    expect(await verify(secret, delivery.raw, delivery.headers['x-webhook-signature'] as string)).toBe(true);
    expect(JSON.parse(delivery.raw.toString()).form_id).toBe(11);
    expect(stdout).toContain('Answered form "contact-us-a1b2c3"');
    expect(stdout).toMatch(/Delivery, as recorded: \{.*"status":"success".*"response_code":200/);
  });

  it('on a running sandbox: through its API with the token given, the integration removed after', async () => {
    const sb = await sandbox();
    cleanups.push(sb.close);
    const rx = await receiver(200);
    cleanups.push(rx.close);
    const secret = 'whsec_chosen_by_the_user';
    const args = ['--to', rx.url, '--base-url', sb.baseUrl, '--token', sb.tokens.all, '--form', '16'];
    const { code, stdout, stderr } = await trigger(...args, '--secret', secret);
    expect(code, stderr).toBe(0);
    expect(stdout).not.toContain(secret);
    const delivery = rx.deliveries[0]!;
    expect(await verify(secret, delivery.raw, delivery.headers['x-webhook-signature'] as string)).toBe(true);
    expect(JSON.parse(delivery.raw.toString()).form_id).toBe(16);
    const integrations = await call(sb.baseUrl, 'GET', '/open/forms/16/integrations', { token: sb.tokens.all });
    expect(integrations.body).toEqual([]);
  });

  it('exits 1 and prints the recorded refusal when the receiver answers 500', async () => {
    const rx = await receiver(500);
    cleanups.push(rx.close);
    const { code, stdout } = await trigger('--to', rx.url);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Delivery, as recorded: \{.*"status":"failed".*"response_code":500/);
  });

  it('refuses a command line it cannot run, saying what to add', async () => {
    expect(await trigger()).toMatchObject({ code: 2, stderr: expect.stringContaining('--to must be') });
    expect(await trigger('--to', 'http://127.0.0.1:9/x', '--base-url', 'http://127.0.0.1:9')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--form is required with --base-url'),
    });
  });
});
