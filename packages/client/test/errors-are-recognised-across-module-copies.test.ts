// An application can load the ESM and the CommonJS build side by side (its code imports, a
// dependency requires): isFormsApiError of one copy recognises an error of the other, where
// `instanceof` does not, and the error's read-only `context` says what it was judged by.
// Needs `pnpm build` first, as turbo's test task does.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type * as Entry from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

const esm = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Entry;
const cjs = createRequire(import.meta.url)('../dist/index.cjs') as typeof Entry;

let server: TestServer;
afterEach(() => server?.close());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have failed'),
    (error: unknown) => error,
  );

describe('FormsApiError across the ESM and the CommonJS build', () => {
  it.each([
    ['ESM', 'CommonJS', esm, cjs],
    ['CommonJS', 'ESM', cjs, esm],
  ] as const)('the %s guard recognises an error thrown by the %s copy', async (_a, _b, judge, thrower) => {
    server = await startServer((_req, res) => json(res, 404, { message: 'Not found.' }));
    const client = thrower.createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    const error = await failureOf(client.forms.get('missing'));
    expect(error).toBeInstanceOf(thrower.FormsApiError);
    expect(error).not.toBeInstanceOf(judge.FormsApiError);
    expect(judge.isFormsApiError(error)).toBe(true);
    const { context } = error as Entry.FormsApiError;
    expect(context).toMatchObject({
      status: 404,
      attempts: 1,
      operation: { method: 'GET', operationId: 'getForm' },
      url: `${server.url}/open/forms/missing`,
    });
    expect(Object.isFrozen(context)).toBe(true);
    expect(JSON.stringify(context)).not.toContain(TOKEN);
  });

  it('keeps the documented fields beside the context, with the same values', async () => {
    server = await startServer((_req, res) =>
      json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '30' }),
    );
    const client = cjs.createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    const error = (await failureOf(client.forms.get('missing'))) as Entry.FormsApiError;
    expect(esm.isFormsApiError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000, attempts: 1 });
    expect(error.context).toMatchObject({ status: 429, retryAfterMs: 30_000, attempts: 1 });
  });

  it('is constructed the one way of every error of the toolkit: kind, message, { context, cause }', () => {
    const cause = new Error('socket hang up');
    const url = 'https://api.example.com/open/forms/1';
    const error = new esm.FormsApiError('network', 'GET /open/forms/1 could not reach api.example.com', {
      context: { url, attempts: 3 },
      cause,
    });
    expect(error).toMatchObject({ kind: 'network', url, attempts: 3, cause, headers: {} });
    expect(error.context).toEqual({ url, attempts: 3 });
    expect(Object.isFrozen(error.context)).toBe(true);
    expect(new esm.FormsApiError('pagination', 'stopped').context).toEqual({ attempts: 0 });
  });

  it('an option error names the option in its context', () => {
    let error: unknown;
    try {
      cjs.createFormsClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, timeoutMs: -1 });
    } catch (caught) {
      error = caught;
    }
    expect(esm.isFormsApiError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'invalid_option', option: 'timeoutMs', context: { option: 'timeoutMs' } });
  });

  it('is not fooled by a look-alike: an Error named FormsApiError with a kind is not one', () => {
    const lookAlike = Object.assign(new Error('forged'), { name: 'FormsApiError', kind: 'not_found' });
    for (const build of [esm, cjs]) {
      expect(build.isFormsApiError(lookAlike)).toBe(false);
      expect(build.isFormsApiError(null)).toBe(false);
      expect(build.isFormsApiError('not_found')).toBe(false);
    }
  });
});
