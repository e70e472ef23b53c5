// The bytes of the answers in `observed` against `contract`, over HTTP. Observed writes JSON as the
// service's framework does: responses with `/` escaped and every non-ASCII character as \uXXXX;
// the bodies its exception handler renders (403, 404, 429, 500) pretty-printed with 4 spaces and
// unescaped slashes; 401 and 422 compact. The contract sandbox writes compact JSON as it is. Both
// name the model in a 404 (`No query results for model [...]`) and allow 100 requests a minute
// per user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

type Which = 'contract' | 'observed';
const get = (which: Which, path: string, token: string = sbs[which].tokens.all) =>
  call(sbs[which].baseUrl, 'GET', path, { token });
const pretty = (body: Record<string, string>) => JSON.stringify(body, null, 4);

describe('response bodies', () => {
  it('escape / and every non-ASCII character in observed, parsing to the same text; contract writes them raw', async () => {
    const path = `/open/forms/11/submissions?per_page=5&search=${encodeURIComponent('zürich')}`;
    const [observed, contract] = [await get('observed', path), await get('contract', path)];
    expect(observed.text).toContain('Z\\u00fcrich');
    expect(observed.text).not.toMatch(/[^\x00-\x7f]/);
    expect(observed.text).toContain('http:\\/\\/127.0.0.1');
    expect(observed.text).not.toContain('://');
    expect(observed.body.data[0].data).toMatchObject({
      [Object.keys(contract.body.data[0].data)[3]!]: expect.stringContaining('Zürich'),
    });
    expect(contract.text).toContain('Zürich');
    expect(contract.text).toContain('http://127.0.0.1');
    // A bare resource is encoded the same way.
    const form = await get('observed', '/open/forms/11');
    expect(form.text).toContain('https:\\/\\/forms.example.com\\/forms\\/contact-us-a1b2c3');
  });

  it('are pretty-printed with unescaped slashes when the exception handler renders them (403, 404; 429 and 500 below and in the integrations test) in observed', async () => {
    const forbidden = { message: 'This action is unauthorized.' };
    expect((await get('observed', '/open/forms/11/submissions', sbs.observed.tokens.none)).text).toBe(
      pretty(forbidden),
    );
    expect((await get('contract', '/open/forms/11/submissions', sbs.contract.tokens.none)).text).toBe(
      JSON.stringify(forbidden),
    );
    const unknownRoute = await get('observed', '/open/nowhere/at/all');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.text).toBe(pretty({ message: 'The route open/nowhere/at/all could not be found.' }));
  });

  it('are compact for 401 and 422 in observed, as the service answers them', async () => {
    expect((await call(sbs.observed.baseUrl, 'GET', '/open/forms/11')).text).toBe('{"message":"Unauthenticated."}');
    const invalid = await call(sbs.observed.baseUrl, 'PUT', '/open/forms/11/submissions/1001', {
      token: sbs.observed.tokens.all,
      body: {},
    });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toBe(JSON.stringify(invalid.body));
    expect(invalid.text.startsWith('{"message":"The Name field is required. (and 1 more error)","errors":{')).toBe(
      true,
    );
  });
});

describe('404 messages', () => {
  it('name the model as the framework does, in both (pretty in observed)', async () => {
    const cases: Array<[string, string]> = [
      ['/open/forms/999', 'No query results for model [App\\Models\\Forms\\Form] 999'],
      ['/open/workspaces/999/forms', 'No query results for model [App\\Models\\Workspace] 999'],
      [
        '/open/forms/11/integrations/77/events',
        'No query results for model [App\\Models\\Integration\\FormIntegration] 77',
      ],
    ];
    for (const [path, message] of cases) {
      for (const which of ['observed', 'contract'] as const) {
        const res = await get(which, path);
        expect([res.status, res.body], `${which} ${path}`).toEqual([404, { message }]);
      }
      expect((await get('observed', path)).text, path).toBe(pretty({ message }));
    }
  });
});

describe('the rate limit', () => {
  it('allows 100 requests a minute per user (not per token) in both, then 429 Too Many Attempts. with the limit headers', async () => {
    const limited = await sideBySide({ rateLimit: { limit: 100, windowMs: 60_000 } });
    try {
      for (const which of ['observed', 'contract'] as const) {
        const sb = limited[which];
        for (let i = 0; i < 100; i++) {
          // Two tokens of the same user share one allowance.
          const res = await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms?per_page=1', {
            token: i % 2 === 0 ? sb.tokens.read : sb.tokens.all,
          });
          expect(res.status, `${which} request ${i + 1}`).toBe(200);
          expect(res.headers.get('x-ratelimit-remaining'), which).toBe(String(99 - i));
        }
        const refused = await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.write });
        expect(refused.status, which).toBe(429);
        expect(refused.body, which).toEqual({ message: 'Too Many Attempts.' });
        expect(refused.text, which).toBe(
          which === 'observed' ? pretty({ message: 'Too Many Attempts.' }) : '{"message":"Too Many Attempts."}',
        );
        expect(refused.headers.get('x-ratelimit-limit'), which).toBe('100');
        expect(refused.headers.get('x-ratelimit-remaining'), which).toBe('0');
        expect(Number(refused.headers.get('retry-after')), which).toBeGreaterThan(0);
        expect(Number(refused.headers.get('x-ratelimit-reset')), which).toBeGreaterThan(Date.now() / 1000);
        // Another user still has the whole allowance.
        expect(
          (await call(sb.baseUrl, 'GET', '/open/workspaces/2/forms', { token: sb.tokens.outsider })).status,
          which,
        ).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});
