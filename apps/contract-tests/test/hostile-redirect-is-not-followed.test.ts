// Issue 20 #3: a tenant's download answers 302 with a Location on another host. The suite once
// fetched it wherever it pointed (a cloud metadata path on a second local listener: blind SSRF from
// CI). Now a redirect off the tenant's origin is followed only to public https; here every one
// points at a private listener, which must receive no request at all.
import { createServer, type Server } from 'node:http';
import { listen } from '@forms-api/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainst, startHostileTenant, type CliRun, type HostileTenant } from './hostile-tenant.js';

const METADATA_PATH = '/latest/meta-data/iam/security-credentials/';

describe('a tenant redirecting the file download off its own host', () => {
  let bystander: Server;
  const seen: string[] = [];
  let tenant: HostileTenant;
  const runs: Record<string, CliRun> = {};

  beforeAll(async () => {
    bystander = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('{"AccessKeyId":"AKIA…"}');
    });
    const { port } = await listen(bystander);
    // Each form of "elsewhere" a tenant could choose: plain http, https on a private address, a name
    // that resolves to loopback, an IPv6 loopback.
    const locations: Record<string, string> = {
      'http on loopback': `http://127.0.0.1:${port}${METADATA_PATH}`,
      'https on loopback': `https://127.0.0.1:${port}${METADATA_PATH}`,
      'a name of loopback': `https://localhost:${port}${METADATA_PATH}`,
      'IPv6 loopback': `https://[::1]:${port}${METADATA_PATH}`,
      'link-local metadata address': `https://169.254.169.254${METADATA_PATH}`,
    };
    let location = '';
    tenant = await startHostileTenant((req, res) => {
      const url = req.url ?? '';
      if (/\/submissions\/file\//.test(url)) {
        res.writeHead(302, { location }).end();
      } else if (/\/forms\/2\/submissions(\?|$)/.test(url)) {
        const fileUrl = `${tenant.baseUrl}/open/forms/2/submissions/file/report.pdf?expires=1900000000&signature=${'a'.repeat(64)}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            data: [{ id: 1, form_id: 2, data: { f: [{ file_url: fileUrl, file_name: 'report.pdf' }] } }],
            links: {},
            meta: {},
          }),
        );
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found."}');
      }
    });
    for (const [name, value] of Object.entries(locations)) {
      location = value;
      runs[name] = await runAgainst(tenant, ['--operation', 'downloadSubmissionFile']);
    }
  }, 240_000);

  afterAll(async () => {
    await tenant?.close();
    bystander?.closeAllConnections();
    await new Promise<void>((resolve) => (bystander ? bystander.close(() => resolve()) : resolve()));
  });

  it('the second listener received no request, whatever the Location', () => {
    expect(Object.keys(runs)).toHaveLength(5);
    expect(seen).toEqual([]);
  });

  it('the redirect is reported as not followed, never as a served file or a failure of the download', () => {
    for (const [name, run] of Object.entries(runs)) {
      const report = JSON.parse(run.json) as { results: Array<{ name: string; outcome: string; reason?: string }> };
      const redirect = report.results.filter((r) => r.name.startsWith('signed URL'));
      expect(
        redirect.map((r) => r.outcome),
        `${name}: ${run.stderr}`,
      ).toEqual(['passed', 'info']);
      expect(redirect[1]!.name, name).toContain('redirect not followed');
      expect(redirect[1]!.reason, name).toContain('only public https is followed');
    }
  });
});
