import { expect, it } from 'vitest';
import { createFormsClient, type FormsClientOptions } from '../src/index.js';
import { exportSubmissions } from '../src/submissions.js';
import { TOKEN } from './support/clock.js';

const base = { baseUrl: 'https://api.example.com', token: TOKEN };

function rejects(options: unknown, option: string, message: RegExp) {
  let error: unknown;
  try {
    createFormsClient(options as FormsClientOptions);
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ name: 'FormsApiError', kind: 'invalid_option', option });
  expect((error as Error).message).toMatch(message);
}

it('rejects a missing, relative or unusable baseUrl', () => {
  rejects({ token: TOKEN }, 'baseUrl', /is required/);
  rejects({ ...base, baseUrl: '/api' }, 'baseUrl', /not an absolute URL: include the scheme and host/);
  rejects({ ...base, baseUrl: 'ftp://x.example' }, 'baseUrl', /http or https/);
  rejects({ ...base, baseUrl: 'https://u:p@x.example' }, 'baseUrl', /credentials/);
  rejects({ ...base, baseUrl: 'https://x.example/?a=1' }, 'baseUrl', /query string/);
  rejects({ ...base, baseUrl: 'https://x.example/open/' }, 'baseUrl', /must not end with "\/open"/);
});

it('rejects an empty token, a token with whitespace or a Bearer prefix', () => {
  rejects({ ...base, token: '' }, 'token', /is required/);
  rejects({ ...base, token: undefined }, 'token', /is required/);
  rejects({ ...base, token: `${TOKEN}\n` }, 'token', /whitespace.*trim it/);
  rejects({ ...base, token: `Bearer ${TOKEN}` }, 'token', /without the "Bearer " prefix/);
});

it('rejects bad timeouts, retry settings, signals and unknown options', () => {
  rejects({ ...base, timeoutMs: -1 }, 'timeoutMs', /positive number of milliseconds/);
  rejects({ ...base, timeoutMs: 0 }, 'timeoutMs', /positive/);
  rejects({ ...base, timeoutMs: Number.NaN }, 'timeoutMs', /positive/);
  rejects({ ...base, retry: { retries: -2 } }, 'retry.retries', /non-negative integer/);
  rejects({ ...base, retry: { baseDelayMs: 500, maxDelayMs: 100 } }, 'retry.maxDelayMs', /at least `baseDelayMs`/);
  rejects({ ...base, retry: { retryOn: ['503'] } }, 'retry.retryOn', /status codes/);
  rejects(
    { ...base, retry: { retires: 3 } },
    'retry.retires',
    /^`retry.retires` is not an option of retry\. Did you mean `retry.retries`\? The options of retry are retries, /,
  );
  rejects({ ...base, retry: true }, 'retry', /`false` or an object/);
  rejects({ ...base, signal: {} }, 'signal', /AbortSignal/);
  rejects(
    { ...base, timeout: 5 },
    'timeout',
    /^`timeout` is not an option of createFormsClient\. Did you mean `timeoutMs`\? The options of createFormsClient are .*timeoutMs/,
  );
  // A misspelt setting is refused wherever it is, named by its path: none is silently ignored.
  rejects(
    { ...base, pacing: { requestsPerMinute: 100, maxWait: 5_000 } },
    'pacing.maxWait',
    /^`pacing.maxWait` is not an option of pacing\. Did you mean `pacing.maxWaitMs`\? The options of pacing are requestsPerMinute, maxWaitMs/,
  );
  rejects({ ...base, clock: { now: 5 } }, 'clock.now', /must be a function/);
  // A clock is an object of the caller's, not settings: members of its own are not refused.
  expect(() => createFormsClient({ ...base, clock: { now: Date.now, release() {} } as never })).not.toThrow();
  rejects({ ...base, userAgent: 'a\r\nX-Evil: 1' }, 'userAgent', /single-line/);
  rejects({ ...base, maxResponseBytes: 0 }, 'maxResponseBytes', /positive integer number of bytes, or Infinity/);
  rejects({ ...base, maxResponseBytes: 1.5 }, 'maxResponseBytes', /positive integer/);
  rejects({ ...base, maxResponseBytes: '1MB' }, 'maxResponseBytes', /positive integer/);
});

it('accepts a valid configuration, and trims a trailing slash from baseUrl', async () => {
  expect(() =>
    createFormsClient({ ...base, baseUrl: 'https://x.example/prefix/', timeoutMs: Infinity, retry: false }),
  ).not.toThrow();
});

it('checks helper arguments and call options before sending anything', async () => {
  let sent = 0;
  const client = createFormsClient({
    ...base,
    fetch: async () => {
      sent++;
      return new Response('{}');
    },
  });
  await expect(client.submissions.list(42, { perPage: 500 })).rejects.toMatchObject({
    kind: 'invalid_option',
    option: 'perPage',
  });
  await expect(client.submissions.list(0)).rejects.toMatchObject({ option: 'formId' });
  await expect(client.submissions.list(42, { status: 'pending' as never })).rejects.toMatchObject({ option: 'status' });
  await expect(client.submissions.list(42, { per_page: 5 } as never)).rejects.toMatchObject({ option: 'per_page' });
  await expect(client.forms.get(42, { timeoutMs: -5 })).rejects.toMatchObject({ option: 'timeoutMs' });
  await expect(client.forms.get(42, { maxResponseBytes: -1 })).rejects.toMatchObject({ option: 'maxResponseBytes' });
  await expect(client.forms.get(42, { retries: 2 } as never)).rejects.toMatchObject({ option: 'retries' });
  await expect(
    client.submissions.update({ form: 42, submission: 7, answers: {} }, { completionTime: -1 }),
  ).rejects.toMatchObject({
    option: 'completionTime',
  });
  expect(() => client.submissions.iterate(42, {}, { maxPages: 0 })).toThrow(/maxPages/);
  // The updates name their ids: the old positional call and misspelt keys fail before sending.
  for (const update of [client.submissions.update, client.submissions.updateKeeping]) {
    await expect((update as (...args: unknown[]) => Promise<unknown>)(42, 7, { a: 'b' })).rejects.toMatchObject({
      kind: 'invalid_option',
      option: 'update',
      message: expect.stringMatching(/takes one object \{ form, submission, (answers|changes) \} \(got 42\)/),
    });
    await expect(update({ formId: 42, submission: 7, answers: {}, changes: {} } as never)).rejects.toMatchObject({
      option: 'formId',
      message: expect.stringMatching(/use form, submission, (answers|changes)/),
    });
    await expect(update({ form: 42, submission: 0, answers: {}, changes: {} } as never)).rejects.toMatchObject({
      option: expect.stringMatching(/^(submission|answers|changes)$/),
    });
  }
  await expect(client.submissions.update({ form: 42, submission: 7 } as never)).rejects.toMatchObject({
    option: 'answers',
  });
  await expect(
    client.submissions.updateKeeping({ form: 'x', submission: 7, changes: {} } as never),
  ).rejects.toMatchObject({
    option: 'form',
  });
  // So do the integrations' methods that take two ids.
  const input = { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://e.com' } } as const;
  const positional = client.integrations as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [method, keys] of [
    ['update', 'form, integration, input'],
    ['delete', 'form, integration'],
    ['events', 'form, integration'],
  ] as const) {
    await expect(positional[method]!(42, 3, input)).rejects.toMatchObject({
      kind: 'invalid_option',
      option: method === 'update' ? 'update' : 'integration',
      message: expect.stringContaining(`integrations.${method} takes one object { ${keys} } (got 42)`),
    });
    await expect(positional[method]!({ formId: 42, integration: 3, input })).rejects.toMatchObject({
      option: 'formId',
      message: expect.stringContaining(`use ${keys}`),
    });
    await expect(positional[method]!({ form: 42, integration: 0, input })).rejects.toMatchObject({
      option: method === 'update' ? 'integration' : 'input',
    });
  }
  await expect(client.integrations.update({ form: 42, integration: 3 } as never)).rejects.toMatchObject({
    option: 'input',
  });
  expect(sent).toBe(0);
});

it('refuses a misspelt export option by name, with the option it is nearest to, before reading anything', async () => {
  let sent = 0;
  const client = createFormsClient({ ...base, fetch: async () => (sent++, new Response('{}')) });
  await expect(
    exportSubmissions(client, 42, { format: 'ndjson', to: () => {}, perpage: 10 } as never),
  ).rejects.toMatchObject({
    kind: 'invalid_option',
    option: 'perpage',
    message: expect.stringMatching(/^`perpage` is not an option of exportSubmissions\. Did you mean `perPage`\?/),
  });
  expect(sent).toBe(0);
});

it("takes a call's options for every request of an export (here the cap on a response's size)", async () => {
  const client = createFormsClient({
    ...base,
    fetch: async () =>
      new Response(JSON.stringify({ id: 42, properties: [] }), { headers: { 'content-type': 'application/json' } }),
  });
  await expect(
    exportSubmissions(client, 42, { format: 'ndjson', to: () => {}, maxResponseBytes: 8, retry: false }),
  ).rejects.toMatchObject({ kind: 'response_too_large', context: { limit: 8 } });
});
