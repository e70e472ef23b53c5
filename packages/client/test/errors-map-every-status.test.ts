import { afterEach, describe, expect, it } from 'vitest';
import { createFormsClient, FormsApiError, isFormsApiError } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { closedPortUrl, json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const html502 = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${'<!-- padding -->'.repeat(100)}</body></html>`;

async function failWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  server = await startServer((_req, res) => {
    if (typeof body === 'string') {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      return void res.end(body);
    }
    json(res, status, body, headers);
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  return client;
}

async function caught(promise: Promise<unknown>): Promise<FormsApiError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(isFormsApiError(err)).toBe(true);
  return err as FormsApiError;
}

describe('error mapping', () => {
  it('401 → unauthenticated, with how to get a token', async () => {
    const client = await failWith(401, { message: 'Unauthenticated.' });
    const err = await caught(client.submissions.list(42));
    expect(err).toMatchObject({ kind: 'unauthenticated', status: 401, body: { message: 'Unauthenticated.' } });
    expect(err.operation).toMatchObject({
      method: 'GET',
      path: '/open/forms/{id}/submissions',
      operationId: 'listFormSubmissions',
    });
    expect(err.message).toMatch(/missing, mistyped, expired or revoked/);
  });

  it('402 → plan_required, naming the feature and tiers', async () => {
    const body = {
      message: 'This feature requires a Pro plan.',
      feature: 'submissions_search',
      required_tier: 'pro',
      current_tier: 'free',
    };
    const client = await failWith(402, body);
    const err = await caught(client.submissions.list(42, { search: 'x' }));
    expect(err).toMatchObject({ kind: 'plan_required', status: 402, body });
    expect(err.message).toMatch(/`free` plan.*`submissions_search`.*`pro`/);
  });

  it('403 → missing_ability, naming the ability and the resource', async () => {
    const client = await failWith(403, { message: 'This action is unauthorized.' });
    const err = await caught(client.forms.list(12));
    expect(err.kind).toBe('missing_ability');
    expect(err.message).toContain(
      'the token lacks the `forms-read` ability, or its user has no access to workspace 12',
    );
    const write = await caught(client.submissions.update({ form: 42, submission: 7, answers: { a: 'b' } }));
    expect(write.message).toContain('`forms-write`');
    const integ = await caught(client.integrations.events({ form: 42, integration: 3 }));
    expect(integ.message).toContain(
      '`manage-integrations` ability, or its user has no access to integration 3 of form 42',
    );
  });

  it("403 on an operation that two abilities grant names both, as the spec's table says", async () => {
    const client = await failWith(403, { message: 'This action is unauthorized.' });
    const err = await caught(client.forms.get(42));
    expect(err.operation).toMatchObject({ operationId: 'getForm', abilities: ['forms-read', 'manage-integrations'] });
    expect(err.message).toContain(
      'the token lacks the `forms-read` or `manage-integrations` ability, or its user has no access to form 42',
    );
    // Read-only members may read a form, so the advice does not ask for more than membership.
    expect(err.message).not.toContain('read-only');
    const integ = await caught(client.integrations.list(42));
    expect(integ.message).toContain('member (not read-only)');
  });

  it('404 → not_found', async () => {
    const client = await failWith(404, { message: 'Not found.' });
    const err = await caught(client.forms.get('no-such-slug'));
    expect(err).toMatchObject({ kind: 'not_found', status: 404 });
    expect(err.message).toContain('form no-such-slug does not exist');
  });

  it('422 → validation, with the field errors', async () => {
    const body = {
      message: 'The per page field must not be greater than 100.',
      errors: { per_page: ['The per page field must not be greater than 100.'] },
    };
    const client = await failWith(422, body);
    const err = await caught(client.submissions.list(42));
    expect(err.kind).toBe('validation');
    expect(err.fieldErrors).toEqual(body.errors);
    expect(err.message).toContain('per_page: The per page field');
  });

  it('429 → rate_limited, with retryAfterMs and the rate-limit headers', async () => {
    const client = await failWith(
      429,
      { message: 'Too Many Attempts.' },
      { 'retry-after': '30', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0' },
    );
    const err = await caught(client.forms.get(42));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000 });
    expect(err.headers).toMatchObject({ 'retry-after': '30', 'x-ratelimit-limit': '100' });
  });

  it('500 → server', async () => {
    const client = await failWith(500, { message: 'Server Error' });
    await expect(caught(client.integrations.list(42))).resolves.toMatchObject({
      kind: 'server',
      status: 500,
      body: { message: 'Server Error' },
    });
  });

  it('an HTML 502 from a proxy → server, with a truncated snippet instead of a crash', async () => {
    const client = await failWith(502, html502);
    const err = await caught(client.forms.get(42));
    expect(err).toMatchObject({ kind: 'server', status: 502, body: undefined });
    expect(err.bodyText).toMatch(/^<!DOCTYPE html>.*502 Bad Gateway/);
    expect(err.bodyText!.length).toBeLessThanOrEqual(301);
  });

  it('another status → http', async () => {
    const client = await failWith(418, { message: "I'm a teapot" });
    await expect(caught(client.forms.get(42))).resolves.toMatchObject({ kind: 'http', status: 418 });
  });

  it('a success status with a body that is not JSON → http, explained', async () => {
    const client = await failWith(200, '<html>login</html>');
    const err = await caught(client.forms.get(42));
    expect(err.kind).toBe('http');
    expect(err.message).toMatch(/not JSON/);
    // The answer it judged: the status and headers of the success that was not JSON.
    expect(err).toMatchObject({ status: 200, context: { status: 200, attempts: 1 } });
    expect(err.headers['content-type']).toBe('text/html');
  });

  it('connection refused → network, with the code as cause', async () => {
    const client = createFormsClient({ baseUrl: await closedPortUrl(), token: TOKEN, retry: false });
    const err = await caught(client.forms.get(42));
    expect(err).toMatchObject({ kind: 'network', attempts: 1 });
    expect(err.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect((err.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it("raw calls keep openapi-fetch's { data, error, response } for HTTP errors", async () => {
    const client = await failWith(404, { message: 'Not found.' });
    const { data, error, response } = await client.GET('/open/forms/{form}', { params: { path: { form: 1 } } });
    expect(data).toBeUndefined();
    expect(error).toEqual({ message: 'Not found.' });
    expect(response.status).toBe(404);
  });
});
