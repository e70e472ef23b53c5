// Issue 20, findings 17-20, in both behaviours over real HTTP: an empty admin token never opens
// the reset; integration logic nested deeper than the service can read is refused before it is
// stored; custom webhook headers that no request can carry are refused when saved, in the
// service's words; a percent-encoded control character in a path never reaches the log decoded.
// And the 422 for a local http receiver says which switch allows it (issue 22).
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxError, startSandbox, type SandboxHandle } from '../src/index.js';
import { call, fieldIds, rawRequest, receiver, sandbox } from './support.js';

const BEHAVIOURS = ['contract', 'observed'] as const;
let running: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
});
const started = async (options: Parameters<typeof sandbox>[0]) => {
  const s = await sandbox(options);
  running.push(s);
  return s;
};

const integration = (webhook_url: string, extra: Record<string, unknown> = {}, logic?: unknown) => ({
  integration_id: 'webhook',
  status: 'active',
  data: { webhook_url, webhook_secret: 'whsec_red_team_secret', ...extra },
  ...(logic !== undefined ? { logic } : {}),
});

const answerForm11 = async (s: SandboxHandle) => {
  const ids = await fieldIds(s, 11);
  return call(s.baseUrl, 'POST', '/forms/11/answer', { body: { [ids.Name!]: 'Ada', [ids.Email!]: 'ada@example.com' } });
};

describe('17. the admin token', () => {
  it.each(['', 'short', 'has a space in it!!', 'x'.repeat(15)])(
    'adminToken %j is refused before anything listens, its value never echoed',
    async (adminToken) => {
      const refused = await startSandbox({ adminToken }).then(
        (s) => s.close().then(() => undefined),
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SandboxError);
      expect(refused).toMatchObject({ kind: 'invalid_option' });
      if (adminToken.length > 0) expect((refused as Error).message).not.toContain(adminToken);
    },
  );

  it('a reset with no token, an empty one or a wrong one is 401; the right one resets', async () => {
    const s = await started({ adminToken: 'sandbox_admin_0123456789abcdef' });
    for (const authorization of [undefined, 'Bearer ', 'Bearer', 'Bearer sandbox_admin_0123456789abcdeX']) {
      const answer = await rawRequest(s.baseUrl, 'POST', '/__sandbox/reset', {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(answer.status, String(authorization)).toBe(401);
    }
    expect(
      (await call(s.baseUrl, 'POST', '/__sandbox/reset', { token: 'sandbox_admin_0123456789abcdef' })).status,
    ).toBe(200);
  });
});

describe.each(BEHAVIOURS)('18. deeply nested integration logic (%s)', (behaviour) => {
  const nested = (depth: number) => {
    let node: unknown = { value: { operator: 'is_not_empty', property_meta: { id: 'x', type: 'text' }, value: null } };
    for (let i = 0; i < depth; i++) node = { operatorIdentifier: 'and', children: [node] };
    return node;
  };

  it('20,000 levels are refused with a 422 before anything is stored; answers and the list stay 200', async () => {
    const s = await started({ behaviour });
    const rx = await receiver();
    try {
      // Written as text: JSON.stringify itself cannot nest 20,000 levels.
      const leaf = JSON.stringify(nested(0));
      const logic = '{"operatorIdentifier":"and","children":['.repeat(20_000) + leaf + ']}'.repeat(20_000);
      const body = JSON.stringify(integration(rx.url)).replace(/}$/, `,"logic":${logic}}`);
      const created = await rawRequest(s.baseUrl, 'POST', '/open/forms/11/integrations', {
        headers: {
          authorization: `Bearer ${s.tokens.all}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
      });
      expect(created.status).toBe(422);
      expect(JSON.parse(created.text).message).toMatch(
        /nests arrays and objects 4000[0-9] levels deep; at most 512 are read/,
      );
      const list = await call(s.baseUrl, 'GET', '/open/forms/11/integrations', {
        token: s.tokens.all,
        operationId: 'listFormIntegrations',
      });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      expect((await answerForm11(s)).status).toBe(200);
    } finally {
      await rx.close();
    }
  });

  it('logic as deep as the service reads is stored, listed, and every answer is still 200', async () => {
    const s = await started({ behaviour });
    const rx = await receiver();
    try {
      // The body is level 1, the logic level 2, each group two more (the group and its children list).
      const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: s.tokens.all,
        body: integration(rx.url, {}, nested(253)),
      });
      expect(created.status).toBe(200);
      expect((await call(s.baseUrl, 'GET', '/open/forms/11/integrations', { token: s.tokens.all })).status).toBe(200);
      expect((await answerForm11(s)).status).toBe(200);
    } finally {
      await rx.close();
    }
  });
});

describe.each(BEHAVIOURS)('19. custom webhook headers no request can carry (%s)', (behaviour) => {
  const refusals: Array<[Record<string, unknown>, RegExp]> = [
    [{ 'X-Note': 'a\r\nX-Injected: 1' }, /^Header value for 'X-Note' holds a line break/],
    [{ 'X-Note': 'a\nb' }, /^Header value for 'X-Note' holds a line break/],
    [{ 'X-Note': 'a\u0000b' }, /^Header value for 'X-Note' holds a line break, NUL/],
    [{ 'X Note': 'v' }, /^Header name 'X Note' is not a valid HTTP header name/],
    [{ 'X-Ñote': 'v' }, /^Header name 'X-Ñote' is not a valid HTTP header name/],
    [{ 'X-Line\r\nBreak': 'v' }, /^Header name 'X-Line\\x0d\\x0aBreak' is not a valid/],
    // The service's own texts (WebhookIntegration.php:43-78).
    [
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v'])),
      /^Maximum 10 custom headers allowed\.$/,
    ],
    [{ 'X-Long': 'v'.repeat(256) }, /^Header value for 'X-Long' exceeds 255 characters\.$/],
    [{ 'X-Number': 5 }, /^Header values must be strings\. 'X-Number' has invalid value type\.$/],
    [{ '5': 'v' }, /^Header names must be non-empty strings\.$/],
    // 19 digits, still within 64 bits: PHP reads it as an integer key too.
    [{ '9223372036854775807': 'v' }, /^Header names must be non-empty strings\.$/],
    [{ 'Content-Type': 'text/plain' }, /^The 'Content-Type' header cannot be customized for security reasons\.$/],
  ];

  it.each(refusals)(
    '%j is refused on create and on update, nothing saved, answers still 200',
    async (headers, message) => {
      const s = await started({ behaviour });
      const rx = await receiver();
      try {
        const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
          token: s.tokens.all,
          body: integration(rx.url, { webhook_headers: headers }),
        });
        expect(created.status).toBe(422);
        expect(created.body.errors['data.webhook_headers']).toEqual([expect.stringMatching(message)]);
        const good = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
          token: s.tokens.all,
          body: integration(rx.url, { webhook_headers: { 'X-API-Key': 'k' } }),
        });
        expect(good.status).toBe(200);
        const id = good.body.form_integration.id;
        const updated = await call(s.baseUrl, 'PUT', `/open/forms/11/integrations/${id}`, {
          token: s.tokens.all,
          body: integration(rx.url, { webhook_headers: headers }),
        });
        expect(updated.status).toBe(422);
        expect(updated.body.errors['data.webhook_headers']).toEqual([expect.stringMatching(message)]);
        expect((await answerForm11(s)).status).toBe(200);
        const list = await call(s.baseUrl, 'GET', '/open/forms/11/integrations', { token: s.tokens.all });
        expect(list.body.map((i: { data: { webhook_headers?: unknown } }) => i.data.webhook_headers)).toEqual([
          { 'X-API-Key': 'k' },
        ]);
      } finally {
        await rx.close();
      }
    },
  );
});

describe('20. the request log', () => {
  it('prints a path as sent, percent-encoded, with nothing decoded into a second line', async () => {
    const lines: string[] = [];
    const s = await started({ log: (line) => lines.push(line) });
    const forged = '/open/%1b%5b2J%0d%0a[sandbox]%20POST%20/__sandbox/reset%20-%3E%20200%00%e2%80%a8';
    await rawRequest(s.baseUrl, 'GET', forged);
    const line = lines.find((l) => l.startsWith('GET /open/'));
    expect(line).toBeDefined();
    expect(line).toContain('/open/%1b%5b2J%0d%0a[sandbox]%20POST');
    expect(lines.join('\n')).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f\u2028]/);
    expect(lines.filter((l) => l.includes('__sandbox/reset'))).toEqual([line]);
  });
});

describe('the 422 for a local receiver names the switch that allows it', () => {
  it.each(['http://127.0.0.1:9/hook', 'https://127.0.0.1:9/hook', 'https://10.0.0.8/hook'])(
    '%s without allowPrivateWebhooks',
    async (url) => {
      const s = await started({ allowPrivateWebhooks: false });
      const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: s.tokens.all,
        body: integration(url),
      });
      expect(created.status).toBe(422);
      expect(created.body.errors['data.webhook_url'].join(' ')).toContain('--allow-private-webhooks');
    },
  );

  it('a refusal with nothing to do with locality carries no such hint', async () => {
    const s = await started({ allowPrivateWebhooks: false });
    const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: s.tokens.all,
      body: integration('https://user:pw@hooks.example.com/x'),
    });
    expect(created.status).toBe(422);
    expect(created.body.errors['data.webhook_url'].join(' ')).not.toContain('--allow-private-webhooks');
  });
});

describe.each(BEHAVIOURS)('a stored header no request can carry (a custom seed) (%s)', (behaviour) => {
  it('fails that delivery, recorded as an event, never the answer that sent it', async () => {
    const rx = await receiver();
    try {
      const { defaultSeed } = await import('../src/index.js');
      const seed = defaultSeed({ submissionsPerForm: 5 });
      seed.integrations = [
        {
          id: 7,
          formId: 11,
          status: 'active',
          data: { webhook_url: rx.url, webhook_headers: { 'X-Note': 'a\r\nX-Injected: 1' } },
          logic: null,
          createdAt: 0,
          updatedAt: 0,
        },
      ];
      const s = await started({ behaviour, seed });
      expect((await answerForm11(s)).status).toBe(200);
      await expect
        .poll(
          async () =>
            (await call(s.baseUrl, 'GET', '/open/forms/11/integrations/7/events', { token: s.tokens.all })).body.length,
        )
        .toBe(1);
      const [event] = (await call(s.baseUrl, 'GET', '/open/forms/11/integrations/7/events', { token: s.tokens.all }))
        .body;
      expect(JSON.stringify(event)).toMatch(/failed|Error/);
      expect(rx.deliveries).toHaveLength(0);
    } finally {
      await rx.close();
    }
  });
});
