// `client.operations`: every operation of the table has a method, made from its row (so an
// operation added to the spec gets one with no code), that sends the row's method, path, query and
// body through the one Caller (no token on a public operation), returns the 200 body (a file's
// Response unread), throws FormsApiError naming the operation, and refuses a request that does not
// fit the operation before sending anything.
import { OPERATIONS } from '@forms-api/types';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../src/client.js';
import { createFormsClient, FormsApiError, type FormsClient } from '../src/index.js';
import { operationMethods } from '../src/operation-methods.js';
import type { OperationRow } from '../src/operations.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ROWS = Object.values(OPERATIONS) as readonly OperationRow[];
const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const FILE = Buffer.from('%PDF-1.7 a file');

/**
 * A service that records each request and answers 200 with what `answer` says: the route as JSON,
 * a file, or nothing; a 404 under `/missing/`.
 */
async function service(answer: OperationRow['success'] = 'json') {
  const server = await startServer((req, res) => {
    if (req.url.pathname.startsWith('/missing/')) return json(res, 404, { message: 'No query results.' });
    if (answer === 'file') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': FILE.length });
      return void res.end(FILE);
    }
    if (answer === 'empty') return void res.writeHead(200).end();
    json(res, 200, { route: `${req.method} ${req.url.pathname}` });
  });
  servers.push(server);
  return server;
}

/** A request that fills every part an operation takes: numbered path values, each query name, a body. */
function requestFor(row: OperationRow) {
  const path = Object.fromEntries(paramNames(row.path).map((name, i) => [name, i === 0 ? 7 : `seg-${name}`]));
  const query = Object.fromEntries(row.query.map((name) => [name, `q-${name}`]));
  return {
    ...(Object.keys(path).length > 0 ? { path } : {}),
    ...(row.query.length > 0 ? { query } : {}),
    ...(row.body === 'none' ? {} : { body: { probe: row.operationId } }),
  };
}

const filled = (row: OperationRow, request: { path?: Record<string, unknown> }) =>
  row.path.replace(/\{([^}]+)\}/g, (_, name: string) => String(request.path![name]));

/** Calls a method by name without the per-operation types (the test walks the whole table). */
type Untyped = Record<string, (request?: unknown, options?: object) => Promise<unknown>>;
const untyped = (client: FormsClient) => client.operations as unknown as Untyped;

describe('a method for every operation of the table', () => {
  it('client.operations has exactly the operationIds of OPERATIONS, each a function', () => {
    const client = createFormsClient({ baseUrl: 'http://127.0.0.1:9', token: TOKEN });
    expect(Object.keys(client.operations).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const method of Object.values(client.operations)) expect(typeof method).toBe('function');
    expect(Object.isFrozen(client.operations)).toBe(true);
  });

  it.each(ROWS.map((row) => [row.operationId, row] as const))(
    '%s sends its method, path, query and body, with the token only when not public, and returns the 200 body',
    async (_id, row) => {
      const api = await service(row.success);
      const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
      const request = requestFor(row);
      const result = await untyped(client)[row.operationId]!(request);
      const seen = api.requests[0]!;
      expect(api.requests).toHaveLength(1);
      expect(seen.method).toBe(row.method);
      expect(seen.url.pathname).toBe(filled(row, request));
      expect(Object.fromEntries(seen.url.searchParams)).toEqual(request.query ?? {});
      if (request.body) expect(JSON.parse(seen.body)).toEqual(request.body);
      else expect(seen.body).toBe('');
      expect(seen.headers.authorization).toBe(row.public ? undefined : `Bearer ${TOKEN}`);
      if (row.success === 'json') expect(result).toEqual({ route: `${row.method} ${seen.url.pathname}` });
      if (row.success === 'empty') expect(result).toBeUndefined();
      // A file is handed over unread, as submissions.downloadFile does.
      if (row.success === 'file') {
        expect(result).toBeInstanceOf(Response);
        expect((result as Response).bodyUsed).toBe(false);
        expect(Buffer.from(await (result as Response).arrayBuffer())).toEqual(FILE);
      }
    },
  );
});

describe('an operation added to a copy of the table', () => {
  const SYNTHETIC: Record<string, OperationRow> = {
    ...OPERATIONS,
    archiveThing: {
      operationId: 'archiveThing',
      method: 'POST',
      path: '/open/things/{thing}/archive',
      public: false,
      query: ['reason'],
      body: 'optional',
      success: 'json',
    },
    pingThings: {
      operationId: 'pingThings',
      method: 'DELETE',
      path: '/open/things',
      public: true,
      query: [],
      body: 'none',
      success: 'empty',
    },
    exportThings: {
      operationId: 'exportThings',
      method: 'GET',
      path: '/open/things/export',
      public: false,
      query: [],
      body: 'none',
      success: 'file',
    },
  };

  const methodsOver = (api: TestServer) =>
    operationMethods(connect({ baseUrl: api.url, token: TOKEN }).call, SYNTHETIC) as unknown as Untyped;

  it('gets a method like every other, sent by the same Caller from its row', async () => {
    const api = await service();
    const methods = methodsOver(api);
    expect(Object.keys(methods).sort()).toEqual(Object.keys(SYNTHETIC).sort());

    expect(await methods['archiveThing']!({ path: { thing: 'old-one' }, query: { reason: 'done' } })).toEqual({
      route: 'POST /open/things/old-one/archive',
    });
    expect(api.requests[0]!.url.search).toBe('?reason=done');
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // An optional body may be left out; a request with nothing required may be too.
    await methods['archiveThing']!({ path: { thing: 3 } });
    expect(api.requests[1]!.body).toBe('');
    expect(await methods['pingThings']!(undefined, { timeoutMs: 5000 })).toEqual({ route: 'DELETE /open/things' });
    // Public: no token.
    expect(api.requests[2]!.headers.authorization).toBeUndefined();
  });

  it('returns undefined for an empty 200, and the unread Response for a file', async () => {
    const empty = await service('empty');
    expect(await methodsOver(empty)['pingThings']!()).toBeUndefined();
    const files = await service('file');
    const file = (await methodsOver(files)['exportThings']!()) as Response;
    expect(file.bodyUsed).toBe(false);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(FILE);
  });
});

describe('answers that are not a success', () => {
  it('a 404 throws FormsApiError naming the operation and its path values', async () => {
    const api = await service();
    const client = createFormsClient({ baseUrl: `${api.url}/missing`, token: TOKEN });
    const error = await client.operations.getForm({ path: { form: 'contact-us' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormsApiError);
    expect(error).toMatchObject({
      kind: 'not_found',
      status: 404,
      operation: { operationId: 'getForm', method: 'GET', params: { form: 'contact-us' } },
    });
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });
});

describe('requests that do not fit the operation are refused before sending', () => {
  const cases: { name: string; call: (ops: Untyped) => Promise<unknown>; option: string; says: RegExp }[] = [
    {
      name: 'an unknown key of the request',
      call: (ops) => ops['getForm']!({ path: { form: 42 }, params: {} }),
      option: 'params',
      says: /not a parameter of operations\.getForm's request; use path\./,
    },
    {
      name: 'an unknown path parameter',
      call: (ops) => ops['getForm']!({ path: { form: 42, id: 42 } }),
      option: 'id',
      says: /not a parameter of operations\.getForm's path; use form\./,
    },
    {
      name: 'a path that is not an object',
      call: (ops) => ops['getForm']!({ path: 42 }),
      option: 'path',
      says: /must be an object/,
    },
    {
      name: 'a missing path parameter',
      call: (ops) => ops['updateFormIntegration']!({ path: { form: 42 }, body: {} }),
      option: 'path.integrationid',
      says: /required by operations\.updateFormIntegration; nothing was sent/,
    },
    {
      name: 'no request at all where a path is required',
      call: (ops) => ops['getForm']!(),
      option: 'path.form',
      says: /required by operations\.getForm/,
    },
    {
      name: 'a dot segment',
      call: (ops) => ops['getForm']!({ path: { form: '..' } }),
      option: 'path.form',
      says: /one path segment/,
    },
    {
      name: 'an encoded slash',
      call: (ops) => ops['listFormIntegrations']!({ path: { form: 'a%2Fb' } }),
      option: 'path.form',
      says: /one path segment/,
    },
    {
      name: 'an id that is not a positive integer',
      call: (ops) => ops['listWorkspaceForms']!({ path: { workspaceId: -1 } }),
      option: 'path.workspaceId',
      says: /positive integer id/,
    },
    {
      name: 'a path value that is neither a number nor text',
      call: (ops) => ops['getForm']!({ path: { form: null } }),
      option: 'path.form',
      says: /positive integer id or a non-empty text \(got null\)/,
    },
    {
      name: 'a query on an operation that takes none',
      call: (ops) => ops['getForm']!({ path: { form: 42 }, query: { page: 2 } }),
      option: 'query',
      says: /not a parameter of operations\.getForm's request; use path\./,
    },
    {
      name: 'an unknown query parameter',
      call: (ops) => ops['listFormSubmissions']!({ path: { id: 42 }, query: { perPage: 5 } }),
      option: 'perPage',
      says: /use page, per_page, search, status\./,
    },
    {
      name: 'a missing required body',
      call: (ops) => ops['createFormIntegration']!({ path: { form: 42 } }),
      option: 'body',
      says: /required by operations\.createFormIntegration \(its JSON request body\); nothing was sent/,
    },
    {
      name: 'a body that is not JSON structure',
      call: (ops) => ops['createFormAnswer']!({ path: { form: 42 }, body: 'name=Ada' }),
      option: 'body',
      says: /JSON object or array/,
    },
    {
      name: 'a request that is not an object',
      call: (ops) => ops['getForm']!(42),
      option: 'request',
      says: /operations\.getForm takes one object \{ path \} \(got 42\)/,
    },
  ];

  it.each(cases)('$name', async ({ call, option, says }) => {
    const api = await service();
    const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
    const error = await call(untyped(client)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormsApiError);
    expect(error).toMatchObject({ kind: 'invalid_option', option });
    expect((error as Error).message).toMatch(says);
    expect(api.requests).toHaveLength(0);
  });
});
