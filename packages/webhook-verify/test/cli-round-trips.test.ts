// The forms-webhook command (built dist/bin.js, spawned as a user would run it): sign and verify
// through stdin and files, and `send` a signed event to a receiver that verifies it.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { listen } from '@forms-api/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookListener } from '../src/adapters/node.js';
import { BODY, SECRET, SIGNATURE, listenOn } from './http-helpers.js';

const bin = fileURLToPath(new URL('../bin/forms-webhook.js', import.meta.url));
const run = promisify(execFile);

function cli(
  args: string[],
  input?: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('forms-webhook', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forms-webhook-cli-'));
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, BODY);

  it('signs a body from stdin with the secret from the environment', async () => {
    const { code, stdout } = await cli(['sign'], BODY, { FORMS_WEBHOOK_SECRET: SECRET });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(SIGNATURE);
  });

  it('verifies a body from a file: 0 when valid, 1 with the reason when not', async () => {
    expect((await cli(['verify', '--body', bodyFile, '--secret', SECRET, '--signature', SIGNATURE])).code).toBe(0);
    const bad = await cli([
      'verify',
      '--body',
      bodyFile,
      '--secret',
      SECRET,
      '--signature',
      'sha256=' + '0'.repeat(64),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/signature_mismatch/);
    expect(bad.stderr).not.toContain(SECRET);
  });

  it('names a flag it does not know escaped: a pasted one cannot drive the terminal', async () => {
    const { code, stderr } = await cli(['sign', '--\u001b[2Jbody'], BODY, { FORMS_WEBHOOK_SECRET: SECRET });
    expect(code).toBe(2);
    expect(stderr).toContain('--\\x1b[2Jbody');
    expect(stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('explains a missing secret with exit code 2', async () => {
    const { code, stderr } = await cli(['sign'], BODY, { FORMS_WEBHOOK_SECRET: '' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/FORMS_WEBHOOK_SECRET/);
  });

  describe('send', () => {
    const received: Array<{ headers: Record<string, unknown>; submissionId: number }> = [];
    let receiver: { url: string; close: () => Promise<void> };
    beforeAll(async () => {
      receiver = await listenOn(
        createWebhookListener({ secret: SECRET }, (payload, req, res) => {
          received.push({ headers: req.headers, submissionId: payload.submission_id });
          res.writeHead(204).end();
        }),
      );
    });
    afterAll(() => receiver.close());

    it('POSTs the spec example, signed, with custom headers, to a receiver that verifies it', async () => {
      const { code, stdout } = await cli(['send', receiver.url, '--secret', SECRET, '--header', 'X-API-Key: k-7Hq2']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^204 No Content in \d+\.\d ms/);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        submissionId: 456,
        headers: { 'x-api-key': 'k-7Hq2', 'x-webhook-signature': SIGNATURE },
      });
    });

    it("prints a hostile receiver's status text and body escaped and bounded (issue 20 #16)", async () => {
      // A raw socket, so the status line can carry what a framework would refuse to write.
      const hostile = createNetServer((socket) => {
        socket.once('data', () => {
          const body = `\u001b[2J\u001b]0;pwned\u0007ok\rFORGED LINE\u202e${'x'.repeat(5000)}`;
          socket.end(
            `HTTP/1.1 200 OK\u001b[31m red\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
          );
        });
      });
      const { port } = await listen(hostile);
      const { code, stdout } = await cli(['send', `http://127.0.0.1:${port}/`, '--secret', SECRET]);
      hostile.close();
      expect(code).toBe(0);
      expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
      expect(stdout).toContain('\\x1b[2J\\x1b]0;pwned\\x07ok\\x0dFORGED LINE\\u202e');
      expect(stdout).toMatch(/the rest of the reply was not read\)\n$/);
      expect(stdout.length).toBeLessThan(1000);
    });

    it('reads no more of an endless reply than it prints, and ends', async () => {
      const endless = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const pump = () => {
          while (!res.destroyed && res.write('y'.repeat(16_384)));
        };
        res.on('drain', pump);
        pump();
      });
      const { url, close } = await listen(endless);
      // Before, the whole reply was read until the timeout, which then failed the request.
      const { code, stdout } = await cli(['send', url, '--secret', SECRET, '--timeout-ms', '3000']);
      await close();
      expect(code).toBe(0);
      expect(stdout).toMatch(/^200 OK in \d+\.\d ms\ny{500}… \(the rest of the reply was not read\)\n$/);
    });

    it('reports the receiver refusing a wrong secret', async () => {
      const { code, stdout } = await cli(['send', receiver.url, '--secret', 'whsec_the_wrong_one']);
      expect(code).toBe(1);
      expect(stdout).toMatch(/^401 /);
    });
  });

  it("sends `inbox` to the inbox's own command instead of loading a package above this one", async () => {
    const { code, stderr } = await cli(['inbox', 'stats']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/forms-webhook-inbox/);
  });

  it('prints its usage', async () => {
    const { stdout } = await run(process.execPath, [bin, '--help']);
    expect(stdout).toMatch(/forms-webhook send/);
  });
});
