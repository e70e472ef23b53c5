// A tenant whose response body never ends must not exhaust the suite's memory: it reads a bounded
// number of bytes per response, reports the response as too long, and the run writes its report.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../src/targets/limits.js';
import { startReceiver } from '../src/webhooks/receiver.js';
import { runAgainst, startHostileTenant, type CliRun, type HostileTenant } from './hostile-tenant.js';

/** Where the tenant gives up, so that a suite reading everything still ends (and fails this test). */
const TENANT_STOPS_AT = 8 * MAX_RESPONSE_BYTES;
/** Bytes the kernel and the HTTP stack may buffer beyond what the suite read. */
const SLACK = 8 * 1024 * 1024;

describe('a tenant with an endless body', () => {
  let tenant: HostileTenant;
  let run: CliRun;
  const sent: number[] = [];

  beforeAll(async () => {
    const chunk = Buffer.from('{"id":1,"slug":"s","title":"t"},'.repeat(2048));
    tenant = await startHostileTenant((_req, res) => {
      const index = sent.push(0) - 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      let closed = false;
      res.on('close', () => (closed = true));
      const pump = () => {
        while (!closed && sent[index]! < TENANT_STOPS_AT) {
          sent[index]! += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!closed) res.end('{}]}');
      };
      pump();
    });
    run = await runAgainst(tenant, ['--operation', 'listWorkspaceForms']);
  }, 120_000);

  afterAll(async () => {
    await tenant?.close();
  });

  it('writes its report, with the response named as too long', () => {
    expect(run.code).toBe(1);
    expect(
      JSON.parse(run.json).results.some((r: { reason?: string }) =>
        r.reason?.includes(`the body is longer than ${MAX_RESPONSE_BYTES} bytes`),
      ),
    ).toBe(true);
    expect(run.xml).toContain('<testsuite name="live"');
  });

  it('reads at most the limit of each response', () => {
    expect(sent.length).toBeGreaterThan(0);
    for (const bytes of sent) expect(bytes).toBeLessThan(MAX_RESPONSE_BYTES + SLACK);
  });
});

describe('a webhook sender with an endless body', () => {
  it('is refused with 413 once the receiver has kept its limit', async () => {
    const limit = 1024 * 1024;
    const receiver = await startReceiver(0, limit);
    try {
      let written = 0;
      const status = await new Promise<number | undefined>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: receiver.port,
            method: 'POST',
            path: '/webhook',
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            resolve(res.statusCode);
            res.resume();
          },
        );
        req.on('error', () => resolve(undefined));
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < 64 * limit && !req.destroyed) {
            written += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
        };
        pump();
      });
      const delivery = await receiver.waitFor(0, 5_000);
      expect(delivery?.bodyLimit).toBe(limit);
      expect(delivery?.rawBody.length).toBe(limit);
      // Either the 413 arrived, or the connection was closed while the sender was still writing.
      expect([413, undefined]).toContain(status);
      expect(written).toBeLessThan(64 * limit);
    } finally {
      await receiver.close();
    }
  });
});
