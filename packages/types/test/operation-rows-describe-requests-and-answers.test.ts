// The operations table says what a generated client method needs at run time: the names of the
// query parameters (path-item and `$ref` ones included), whether a request body is required, and
// whether the 200 answer is JSON, a file handed over unread, or empty; all read from the spec
// through its one reader (specOperations).
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/index.js';
import { operationRows } from '../scripts/operations-module.mjs';

describe('operation rows from a spec', () => {
  const bundle = {
    components: {
      parameters: { Page: { name: 'page', in: 'query' }, Id: { name: 'id', in: 'path', required: true } },
      requestBodies: { Thing: { required: true, content: { 'application/json': {} } } },
    },
    paths: {
      '/things/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }, { name: 'trace', in: 'query' }],
        get: {
          operationId: 'getThing',
          parameters: [{ $ref: '#/components/parameters/Page' }, { name: 'X-Tag', in: 'header' }],
          responses: { 200: { content: { 'application/json': {}, 'text/csv': {} } } },
        },
        put: {
          operationId: 'putThing',
          requestBody: { $ref: '#/components/requestBodies/Thing' },
          responses: { 200: { content: { 'application/json': {} } } },
        },
        post: {
          operationId: 'postThing',
          requestBody: { content: { 'application/json': {} } },
          responses: { 200: { content: { 'text/csv': {}, 'application/octet-stream': {} } } },
        },
        delete: { operationId: 'deleteThing', responses: { 200: { description: 'gone' } } },
      },
    },
  };
  const rows = Object.fromEntries(operationRows(bundle).map((row) => [row.operationId, row]));

  it('lists the query parameters of the path item and the operation, $ref followed, and nothing else', () => {
    expect(rows['getThing']!.query).toEqual(['trace', 'page']);
    expect(rows['putThing']!.query).toEqual(['trace']);
  });

  it('says whether a request body is required, optional or absent', () => {
    expect([rows['putThing']!.body, rows['postThing']!.body, rows['getThing']!.body]).toEqual([
      'required',
      'optional',
      'none',
    ]);
  });

  it('calls a 200 answer JSON only when application/json is its one media type, a file otherwise, empty without content', () => {
    expect(rows['putThing']!.success).toBe('json');
    // JSON or CSV: which one comes is only known from the answer, so it is handed over unread.
    expect(rows['getThing']!.success).toBe('file');
    expect(rows['postThing']!.success).toBe('file');
    expect(rows['deleteThing']!.success).toBe('empty');
  });
});

it("the generated table carries the export's own rate-limit bucket, and no bucket on a shared-bucket operation", () => {
  expect(OPERATIONS.exportFormSubmissions.rateLimit).toEqual({ bucket: 'export', limit: 10, windowSeconds: 60 });
  expect('rateLimit' in OPERATIONS.listFormSubmissions).toBe(false);
});

it("the generated table calls the signed download's octet stream a file, and a form JSON", () => {
  expect(OPERATIONS.downloadSubmissionFile.success).toBe('file');
  expect(OPERATIONS.getForm.success).toBe('json');
});
