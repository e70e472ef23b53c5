// Hostile inputs (issue 14): what an anonymous respondent, a receiver or a client on the network
// can send, and the bound the sandbox keeps. Each block failed before its fix. Times and memory are
// bounded: huge bodies are streamed, never held, and every wait has a limit.
import { request, createServer, type ServerResponse } from 'node:http';
import { listen } from '@forms-api/test-support';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from '../src/dispatch/webhook-url.js';
import type { SandboxHandle } from '../src/index.js';
import { createRateLimiter } from '../src/ratelimit.js';
import { call, fieldIds, rawRequest, receiver, sandbox } from './support.js';

const MiB = 1024 * 1024;
/** The documented request body limit (README). */
const REQUEST_BODY_LIMIT_BYTES = MiB;

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Runs `work` while sampling this process's RSS; returns its result and the peak growth in bytes. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

/** Streams `total` bytes of JSON-ish filler at the URL (never held in memory); stops at the first answer. */
function streamHugeBody(url: string, total: number, chunked: boolean): Promise<{ status: number; sent: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(total) }) },
      },
      (res) => {
        answered = true;
        res.resume();
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, sent });
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('10. the SSRF guard classifies every address form', () => {
  const PUBLIC = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '151.101.1.69',
    '[2606:4700:4700::1111]',
    '[2001:4860:4860::8888]',
    '[2a00:1450:4001:80b::200e]',
  ];
  const REFUSED: Array<[string, string]> = [
    ['loopback', '127.0.0.1'],
    ['loopback', '127.255.255.254'],
    ['private', '10.0.0.1'],
    ['private', '172.16.0.1'],
    ['private', '172.31.255.255'],
    ['private', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['unspecified', '0.0.0.0'],
    ['this network', '0.1.2.3'],
    ['broadcast', '255.255.255.255'],
    ['multicast', '224.0.0.251'],
    ['reserved', '240.0.0.1'],
    ['IETF protocol', '192.0.0.8'],
    ['documentation', '192.0.2.10'],
    ['documentation', '198.51.100.7'],
    ['documentation', '203.0.113.9'],
    ['benchmarking', '198.18.0.1'],
    ['loopback, decimal spelling', '2130706433'],
    ['loopback, hex spelling', '0x7f.0.0.1'],
    ['loopback, short spelling', '127.1'],
    ['loopback, octal spelling', '0177.0.0.1'],
    ['IPv6 loopback', '[::1]'],
    ['IPv6 unspecified', '[::]'],
    ['IPv4-compatible loopback', '[::127.0.0.1]'],
    ['IPv4-mapped loopback', '[::ffff:127.0.0.1]'],
    ['IPv4-mapped private', '[::ffff:10.0.0.1]'],
    ['IPv4-mapped public', '[::ffff:8.8.8.8]'],
    ['IPv4-translated loopback', '[::ffff:0:127.0.0.1]'],
    ['NAT64 loopback', '[64:ff9b::127.0.0.1]'],
    ['NAT64 public', '[64:ff9b::8.8.8.8]'],
    ['local-use NAT64', '[64:ff9b:1::a00:1]'],
    ['6to4 loopback', '[2002:7f00:1::]'],
    ['6to4 private', '[2002:c0a8:101::1]'],
    ['Teredo', '[2001::1]'],
    ['deprecated site-local', '[fec0::1]'],
    ['discard-only', '[100::1]'],
    ['unique local', '[fc00::1]'],
    ['unique local (cloud metadata)', '[fd00:ec2::254]'],
    ['link-local', '[fe80::1]'],
    ['multicast', '[ff02::1]'],
    ['documentation', '[2001:db8::1]'],
    ['documentation', '[3fff::1]'],
    ['segment routing', '[5f00::1]'],
  ];
  const policy = { allowPrivate: false };

  it.each(PUBLIC)('allows the public address %s', async (host) => {
    const result = await checkWebhookUrl(`https://${host}/hook`, policy);
    expect(result.ok).toBe(true);
  });

  it.each(REFUSED)('refuses %s: %s', async (_kind, host) => {
    expect(await checkWebhookUrl(`https://${host}/hook`, policy)).toEqual({
      ok: false,
      error: 'The webhook URL must resolve only to public IP addresses.',
    });
  });

  it('refuses every embedding of a private IPv4 address in IPv6, and allows public IPv4 (property)', () => {
    const byte = fc.integer({ min: 0, max: 255 });
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(10), byte, byte, byte),
      fc.tuple(fc.constant(127), byte, byte, byte),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
      fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
      fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
    );
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(
      fc.property(privateV4, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const forms = [
          dotted,
          `::ffff:${dotted}`,
          `::${dotted}`,
          `::ffff:0:${dotted}`,
          `64:ff9b::${dotted}`,
          `64:ff9b:1::${hex(a, b)}:${hex(c, d)}`,
          `2002:${hex(a, b)}:${hex(c, d)}::1`,
        ];
        return forms.every((form) => !isPublicAddress(form));
      }),
    );
    const publicV4 = fc.tuple(fc.constantFrom(8, 9, 13, 45, 52, 104, 151, 185), byte, byte, byte);
    fc.assert(fc.property(publicV4, ([a, b, c, d]) => isPublicAddress(`${a}.${b}.${c}.${d}`)));
  });

  it('refuses a host name when any of its addresses is private, and pins a public one', async () => {
    const resolvesTo = (...addresses: string[]) => ({
      allowPrivate: false,
      resolve: async () => addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 })),
    });
    expect((await checkWebhookUrl('https://hooks.example.test/x', resolvesTo('93.184.216.34', '10.0.0.1'))).ok).toBe(
      false,
    );
    expect((await checkWebhookUrl('https://hooks.example.test/x', resolvesTo('::ffff:127.0.0.1'))).ok).toBe(false);
    const pinned = await checkWebhookUrl(
      'https://hooks.example.test/x',
      resolvesTo('2606:4700:4700::1111', '93.184.216.34'),
    );
    expect(pinned).toMatchObject({ ok: true, value: { pinned: { address: '93.184.216.34', family: 4 } } });
    expect(await checkWebhookUrl('https://localhost/x', { allowPrivate: false })).toMatchObject({ ok: false });
  });

  it('saves a webhook to a public IPv4 receiver without --allow-private-webhooks', async () => {
    sb = await sandbox({ allowPrivateWebhooks: false });
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'https://93.184.216.34/hook' } },
      operationId: 'createFormIntegration',
    });
    expect(created.status).toBe(200);
  });
});

describe('11. request and receiver bodies are bounded', () => {
  it('answers 413 to a 100 MiB answer without reading it (Content-Length)', async () => {
    sb = await sandbox();
    const { result, growth } = await peakRssGrowth(() =>
      streamHugeBody(`${sb!.baseUrl}/forms/11/answer`, 100 * MiB, false),
    );
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(100 * MiB);
    expect(growth).toBeLessThan(64 * MiB);
  }, 30_000);

  it('answers 413 to a chunked body once it passes the limit', async () => {
    sb = await sandbox();
    const { result, growth } = await peakRssGrowth(() =>
      streamHugeBody(`${sb!.baseUrl}/forms/11/answer`, 100 * MiB, true),
    );
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(100 * MiB);
    expect(growth).toBeLessThan(64 * MiB);
  }, 30_000);

  it('still accepts a large body under the limit', async () => {
    sb = await sandbox();
    const ids = await fieldIds(sb, 12);
    // The spec caps one answer at 1,000,000 characters; two of them pass the limit.
    const large = { [ids['Full name']!]: 'x'.repeat(900_000) };
    expect(JSON.stringify(large).length).toBeLessThan(REQUEST_BODY_LIMIT_BYTES);
    expect(
      (await call(sb.baseUrl, 'PUT', '/open/forms/12/submissions/5001', { token: sb.tokens.all, body: large })).status,
    ).toBe(200);
    const tooLarge = { ...large, [ids.Phone!]: 'x'.repeat(900_000) };
    expect(
      (await call(sb.baseUrl, 'PUT', '/open/forms/12/submissions/5001', { token: sb.tokens.all, body: tooLarge }))
        .status,
    ).toBe(413);
  });

  it('reads only an excerpt of an endless receiver answer and records the failure at once', async () => {
    let streaming: ServerResponse | undefined;
    const endless = createServer((req, res) => {
      req.resume();
      streaming = res;
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const listening = await listen(endless);
    try {
      sb = await sandbox({ webhookTimeoutMs: 10_000 });
      const url = `${listening.url}/hook`;
      const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.all,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: url } },
      });
      const ids = await fieldIds(sb, 11);
      const { growth } = await peakRssGrowth(() =>
        call(sb!.baseUrl, 'POST', '/forms/11/answer', {
          body: { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' },
        }),
      );
      const [event] = (
        await call(sb.baseUrl, 'GET', `/open/forms/11/integrations/${created.body.form_integration.id}/events`, {
          token: sb.tokens.all,
        })
      ).body;
      expect(event).toMatchObject({ status: 'failed', response_code: 500 });
      // Recorded as the 500 with its excerpt, not as a timeout: the excerpt's end, not the
      // 10 s timeout, ended the request.
      expect(event.error_message).toMatch(/^HTTP request returned status code 500: a+$/);
      expect(growth).toBeLessThan(64 * MiB);
    } finally {
      streaming?.destroy();
      await listening.close();
    }
  }, 30_000);
});

describe('12. URLs the sandbox writes start with its configured base URL, never the Host header', () => {
  // A name it was not given is refused outright (requests-for-another-host-are-refused); one it
  // was given still never makes the URLs it writes.
  it('keeps a foreign Host out of pagination links and signed file URLs', async () => {
    sb = await sandbox({ allowedHosts: ['attacker.example'] });
    const listed = await rawRequest(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=100', {
      headers: { host: 'attacker.example', authorization: `Bearer ${sb.tokens.all}` },
    });
    expect(listed.status).toBe(200);
    const body = JSON.parse(listed.text);
    const fileUrls = [...JSON.stringify(body.data).matchAll(/"file_url":"([^"]+)"/g)].map((m) => m[1]!);
    expect(fileUrls.length).toBeGreaterThan(0);
    const urls = [
      body.links.first,
      body.links.next,
      body.meta.path,
      ...body.meta.links.map((l: { url: string | null }) => l.url).filter(Boolean),
      ...fileUrls,
    ];
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) expect(url.startsWith(`${sb.baseUrl}/`), url).toBe(true);
  });

  it('keeps a respondent-chosen Host out of the signed webhook payload', async () => {
    sb = await sandbox({ allowedHosts: ['attacker.example'] });
    const rx = await receiver(200);
    try {
      await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.all,
        body: {
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: rx.url, webhook_secret: 'whsec_host_test_secret' },
        },
      });
      const ids = await fieldIds(sb, 11);
      const answer = { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com', [ids.Attachment!]: ['contract.pdf'] };
      const sent = await rawRequest(sb.baseUrl, 'POST', '/forms/11/answer', {
        headers: { host: 'attacker.example', 'content-type': 'application/json' },
        body: JSON.stringify(answer),
      });
      expect(sent.status).toBe(200);
      const payload = JSON.parse(rx.deliveries[0]!.raw.toString('utf8'));
      expect(
        payload.submission.Attachment[0].file_url.startsWith(`${sb.baseUrl}/open/forms/11/submissions/file/`),
      ).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('writes the public URL it was given, when behind a proxy', async () => {
    sb = await sandbox({ publicUrl: 'https://sandbox.example.test/' });
    expect(sb.baseUrl).toBe('https://sandbox.example.test');
    const listed = await rawRequest(sb.listenUrl, 'GET', '/open/forms/11/submissions?per_page=1', {
      headers: { authorization: `Bearer ${sb.tokens.all}` },
    });
    expect(JSON.parse(listed.text).links.first).toMatch(
      /^https:\/\/sandbox\.example\.test\/open\/forms\/11\/submissions\?/,
    );
  });
});

describe('13. the public rate limit keys on the real client, and forgets expired windows', () => {
  const partialAnswer = async (s: SandboxHandle, forwardedFor: string) =>
    (
      await rawRequest(s.baseUrl, 'POST', '/forms/11/answer', {
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ is_partial: true }),
      })
    ).status;

  it('ignores a client-set X-Forwarded-For unless proxies are trusted', async () => {
    sb = await sandbox({ rateLimit: { limit: 5, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await partialAnswer(sb, `198.51.100.${i}`));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('behind one trusted proxy, keys on the address that proxy appended', async () => {
    sb = await sandbox({ rateLimit: { limit: 2, windowMs: 60_000 }, trustedProxies: 1 });
    // The client's own claims (left) change; the proxy's entry (right) stays: one budget.
    expect([
      await partialAnswer(sb, '1.1.1.1, 203.0.113.5'),
      await partialAnswer(sb, '2.2.2.2, 203.0.113.5'),
      await partialAnswer(sb, '3.3.3.3, 203.0.113.5'),
    ]).toEqual([200, 200, 429]);
    expect(await partialAnswer(sb, '203.0.113.6')).toBe(200);
    // Not an address: the peer address is used instead of a client-made key.
    expect(await partialAnswer(sb, 'x'.repeat(4000))).toBe(200);
  });

  it('drops windows once they expire (30,000 keys)', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 100, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 30_000; i++) limiter(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(limiter.size).toBe(30_000);
    now += 60_000;
    limiter('ip:192.0.2.1');
    expect(limiter.size).toBe(1);
  });
});

describe('14. administration, answer keys, check order and file names', () => {
  it('resets only with the admin token', async () => {
    sb = await sandbox();
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'http://127.0.0.1:9/x' } },
    });
    const integrations = async () =>
      (await call(sb!.baseUrl, 'GET', '/open/forms/11/integrations', { token: sb!.tokens.all })).body.length;
    for (const token of [undefined, sb.tokens.all, 'sandbox_admin_wrong']) {
      const refused = await call(sb.baseUrl, 'POST', '/__sandbox/reset', token ? { token } : {});
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/admin token/);
    }
    expect(await integrations()).toBe(1);
    expect(created.status).toBe(200);
    expect((await call(sb.baseUrl, 'POST', '/__sandbox/reset', { token: sb.adminToken })).status).toBe(200);
    expect(await integrations()).toBe(0);
  });

  it('refuses a __proto__ key in an update as an unknown field, and ignores it in a new answer', async () => {
    sb = await sandbox();
    const ids = await fieldIds(sb, 11);
    const valid = JSON.stringify({ [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' });
    const send = (method: string, path: string, token?: string) =>
      rawRequest(sb!.baseUrl, method, path, {
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: `{"__proto__":{"polluted":true},${valid.slice(1)}`,
      });
    const updated = await send('PUT', '/open/forms/11/submissions/1001', sb.tokens.all);
    expect(updated.status).toBe(422);
    expect(Object.keys(JSON.parse(updated.text).errors)).toEqual(['__proto__']);
    // The spec: unknown keys of a new answer are ignored; the answer is saved without it.
    expect((await send('POST', '/forms/11/answer')).status).toBe(200);
    const [newest] = (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all }))
      .body.data;
    expect(Object.hasOwn(newest.data, '__proto__')).toBe(false);
    expect(newest.data[ids.Name!]).toBe('Ada');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 404 for an unknown submission or integration before 403 and 422', async () => {
    sb = await sandbox();
    const cases: Array<[string, string, string, unknown]> = [
      ['PUT', '/open/forms/11/submissions/99999999', sb.tokens.read, { completion_time: 'seventy' }],
      ['PUT', '/open/forms/11/submissions/99999999', sb.tokens.all, { completion_time: 'seventy' }],
      ['PUT', '/open/forms/11/submissions/abc', sb.tokens.none, {}],
      ['GET', '/open/forms/11/integrations/999/events', sb.tokens.read, undefined],
      ['DELETE', '/open/forms/11/integrations/999', sb.tokens.none, undefined],
      ['PUT', '/open/forms/11/integrations/999', sb.tokens.readonly, { status: 'nope' }],
    ];
    for (const [method, path, token, body] of cases)
      expect((await call(sb.baseUrl, method, path, { token, body })).status, `${method} ${path}`).toBe(404);
    // Then 403 before 422: a closed form refuses an invalid answer as closed.
    expect((await call(sb.baseUrl, 'POST', '/forms/13/answer', { body: { completion_time: 'late' } })).status).toBe(
      403,
    );
  });

  it('serves a file with a non-Latin-1 name (RFC 6266 filename*)', async () => {
    sb = await sandbox();
    const ids = await fieldIds(sb, 11);
    const name = 'résumé-日本 "final".pdf';
    expect(
      (
        await call(sb.baseUrl, 'POST', '/forms/11/answer', {
          body: { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com', [ids.Attachment!]: [name] },
        })
      ).status,
    ).toBe(200);
    const [newest] = (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all }))
      .body.data;
    const download = await fetch(newest.data[ids.Attachment!][0].file_url);
    expect(download.status).toBe(200);
    const disposition = download.headers.get('content-disposition')!;
    expect(disposition).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9-%E6%97%A5%E6%9C%AC%20%22final%22.pdf`);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+";/);
  });
});
