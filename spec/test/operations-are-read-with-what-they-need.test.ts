// specOperations reads from the bundle what every derived check needs: each path parameter named
// with what it identifies, parameters with their $ref followed, bodies, media types and links.
import { describe, expect, it } from 'vitest';
import { sharedRateLimit, specOperations, webhookDelivery } from '../lib/operations.mjs';
import { bundle, operations } from './load-bundle.js';

describe('specOperations', () => {
  const read = specOperations(bundle);

  it('reads every operation of the bundle once', () => {
    expect(read.map((o) => o.operationId).sort()).toEqual([...operations()].map((o) => o.operation.operationId).sort());
  });

  it('names what every path parameter of every operation identifies', () => {
    for (const operation of read) {
      const inPath = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = operation.parameters.filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), operation.operationId).toEqual([...inPath].sort());
      for (const p of declared) expect(p.identifies, `${operation.operationId} ${p.name}`).toMatch(/^[a-z][a-z-]*$/);
    }
  });

  it('says what an unknown value of each path parameter is answered: 400 for an invitation (observed), else 404', () => {
    const unknown = new Set(
      read.flatMap((o) => o.parameters.filter((p) => p.in === 'path').map((p) => `${p.identifies} ${p.unknownStatus}`)),
    );
    expect([...unknown].filter((s) => !s.endsWith(' 404'))).toEqual(['invite 400']);
  });

  it("names the body properties that identify a resource of the tenant, through allOf: createForm's workspace_id", () => {
    const identifying = read.flatMap((o) =>
      (o.jsonBody?.identifying ?? []).map((p) => `${o.operationId}.${p.name}: ${p.identifies}`),
    );
    expect(identifying).toEqual(['createForm.workspace_id: workspace']);
  });

  it('follows parameter refs, and lets an operation parameter override the path item one', () => {
    const doc = {
      paths: {
        '/things/{thing}': {
          parameters: [
            { $ref: '#/components/parameters/Thing' },
            { name: 'q', in: 'query', schema: { type: 'string' } },
          ],
          get: {
            operationId: 'getThing',
            security: [{ token: ['things-read'] }],
            parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }],
            responses: {
              '200': {
                content: { 'text/csv': {} },
                links: { Again: { operationId: 'getThing', parameters: { thing: '$request.path.thing' } } },
              },
            },
          },
          put: {
            operationId: 'putThing',
            security: [],
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
            responses: { '200': { content: { 'application/json': {} } }, '404': {} },
          },
        },
      },
      components: {
        parameters: {
          Thing: { name: 'thing', in: 'path', required: true, schema: { type: 'integer' }, 'x-identifies': 'thing' },
        },
      },
    };
    const [get, put] = specOperations(doc);
    expect(get).toMatchObject({
      method: 'GET',
      abilities: ['things-read'],
      public: false,
      successMediaTypes: ['text/csv'],
      parameters: [
        { name: 'thing', in: 'path', required: true, identifies: 'thing', unknownStatus: 404 },
        { name: 'q', in: 'query', required: true, schema: { type: 'integer' } },
      ],
      links: [{ name: 'Again', operationId: 'getThing', parameters: { thing: '$request.path.thing' } }],
    });
    expect(get!.jsonBody).toBeUndefined();
    expect(put).toMatchObject({ public: true, statuses: [200, 404], jsonBody: { required: true } });
  });

  it("reads an operation's own rate-limit bucket from x-rate-limit: the export's 10 a minute, and none elsewhere", () => {
    const own = read.filter((o) => o.rateLimit !== undefined);
    expect(own.map((o) => [o.operationId, o.rateLimit])).toEqual([
      ['exportFormSubmissions', { bucket: 'export', limit: 10, windowSeconds: 60 }],
    ]);
  });

  it('refuses an x-rate-limit without a bucket name, a positive limit and window', () => {
    const withLimit = (rateLimit: unknown) => ({
      paths: { '/x': { get: { operationId: 'getX', 'x-rate-limit': rateLimit, responses: {} } } },
    });
    for (const bad of [
      { limit: 10, windowSeconds: 60 },
      { bucket: 'x', limit: 0, windowSeconds: 60 },
      { bucket: 'x', limit: 10 },
      null,
    ])
      expect(() => specOperations(withLimit(bad)), JSON.stringify(bad)).toThrow(/getX: x-rate-limit needs/);
  });
});

describe('the service-wide facts', () => {
  it('reads the shared bucket from the document and the webhook delivery from its x-delivery', () => {
    expect(sharedRateLimit(bundle)).toEqual({ bucket: 'shared', limit: 100, windowSeconds: 60 });
    expect(webhookDelivery(bundle, 'submission.created')).toEqual({
      attempts: 1,
      timeoutSeconds: 5,
      followsRedirects: false,
    });
  });

  it('refuses a missing or malformed one instead of guessing', () => {
    expect(() => sharedRateLimit({})).toThrow(/the document: x-rate-limit needs/);
    expect(() => webhookDelivery({ webhooks: {} }, 'submission.created')).toThrow(/no webhook submission.created/);
    const withDelivery = (delivery: unknown) => ({ webhooks: { hook: { post: { 'x-delivery': delivery } } } });
    for (const bad of [
      undefined,
      { attempts: 0, timeoutSeconds: 5, followsRedirects: false },
      { attempts: 1.5, timeoutSeconds: 5, followsRedirects: false },
      { attempts: 1, timeoutSeconds: '5', followsRedirects: false },
      { attempts: 1, timeoutSeconds: 5 },
    ])
      expect(() => webhookDelivery(withDelivery(bad), 'hook'), JSON.stringify(bad)).toThrow(/hook: x-delivery needs/);
  });
});
