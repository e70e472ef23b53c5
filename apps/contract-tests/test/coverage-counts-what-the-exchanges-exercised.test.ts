// coverage.json from hand-made exchanges: what an exchange covers of its operation (the operation,
// the response code, the parameters sent, the top-level body properties), how exchanges are
// counted (accepted 2xx, refused 4xx/5xx, apart), and that the totals are the items' own sums.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../src/model.js';
import { coverageLine, createCoverageCollector, type CoverageItem } from '../src/report/coverage.js';
import { loadSpec } from '../src/spec.js';

const { bundle } = loadSpec();
const BASE = 'http://127.0.0.1:4010';

const exchange = (method: string, path: string, extra: Partial<Exchange> = {}): Exchange => ({
  method,
  url: `${BASE}${path}`,
  requestHeaders: { authorization: 'Bearer x' },
  ...extra,
});

const itemName = (i: CoverageItem): string =>
  i.kind === 'operation'
    ? 'operation'
    : i.kind === 'parameter'
      ? `${i.in}:${i.name}`
      : i.kind === 'response'
        ? i.status
        : `${i.target}${i.status ?? ''}.${i.path}`;

describe('coverage of hand-made exchanges', () => {
  it('an answered call covers its operation, its status, the parameters and top-level properties it carried', () => {
    const c = createCoverageCollector('t', bundle, BASE);
    c.record(
      exchange('PUT', '/open/forms/7/submissions/9', {
        requestBody: JSON.stringify({ completion_time: 3, someFieldId: 'a' }),
        status: 200,
        responseBody: JSON.stringify({ message: 'ok', unknown_field: 1 }),
      }),
    );
    c.record(exchange('GET', '/open/forms/7/submissions?page=2', { status: 404, responseBody: '{"message":"x"}' }));
    const s = c.summary();
    const update = s.operations.find((o) => o.operationId === 'updateFormSubmission')!;
    const covered = update.covered.map(itemName);
    expect(covered).toEqual(
      expect.arrayContaining([
        'operation',
        'path:id',
        'path:submission_id',
        '200',
        'request.completion_time',
        'response200.message',
      ]),
    );
    expect(covered).not.toContain('404');
    expect(update.missing.map(itemName)).toEqual(expect.arrayContaining(['404', '422']));
    expect(update.exchanges).toEqual({ accepted: 1, refused: 0, other: 0, unanswered: 0 });

    const list = s.operations.find((o) => o.operationId === 'listFormSubmissions')!;
    expect(list.covered.map(itemName)).toEqual(expect.arrayContaining(['operation', 'query:page', '404']));
    expect(list.missing.map(itemName)).toEqual(expect.arrayContaining(['200', 'query:status']));
    expect(list.exchanges).toEqual({ accepted: 0, refused: 1, other: 0, unanswered: 0 });

    // A property the spec does not document is no item at all: coverage counts the spec.
    expect([...update.covered, ...update.missing].map(itemName)).not.toContain('response200.unknown_field');
    const getForm = s.operations.find((o) => o.operationId === 'getForm')!;
    expect(getForm.covered).toEqual([]);
    expect(getForm.missing[0]).toEqual({ kind: 'operation' });
    expect(s.totals.operations).toEqual({ covered: 2, total: s.operations.length });
  });

  it('counts exchanges outside the spec and unanswered ones, and matches below a base URL with a path', () => {
    const c = createCoverageCollector('t', bundle, `${BASE}/api/`);
    c.record(exchange('GET', '/api/open/forms/my-form', { status: 200, responseBody: '{}' }));
    c.record(exchange('GET', '/open/forms/my-form', { status: 200 })); // not below the base path
    c.record({ ...exchange('GET', '/api/open/forms/my-form'), url: 'http://elsewhere.example/api/open/forms/x' });
    c.record(exchange('PATCH', '/api/open/forms/my-form', { status: 405 })); // no such operation
    c.record(exchange('GET', '/api/open/forms/my-form', { transportError: 'ECONNRESET' }));
    const s = c.summary();
    expect(s.exchanges).toEqual({ total: 5, matched: 2, accepted: 2, refused: 1, other: 0, unanswered: 2 });
    expect(s.operations.find((o) => o.operationId === 'getForm')!.exchanges).toEqual({
      accepted: 1,
      refused: 0,
      other: 0,
      unanswered: 1,
    });
    expect(coverageLine(s)).toBe(
      `t: operations 1/${s.totals.operations.total}, response codes 1/${s.totals.responses.total}, parameters 1/${s.totals.parameters.total}, ` +
        `schema properties 0/${s.totals.properties.total}; 5 exchanges (2 accepted, 1 refused, 2 unanswered; 3 outside the spec's operations)`,
    );
  });

  it('a literal segment wins over a template: /forms/mine is not /forms/{form}', () => {
    const tiny = {
      openapi: '3.1.0',
      paths: {
        '/forms/{form}': { get: { operationId: 'getOne', responses: { '200': { description: 'one' } } } },
        '/forms/mine': { get: { operationId: 'getMine', responses: { '200': { description: 'mine' } } } },
      },
    };
    const c = createCoverageCollector('t', tiny, BASE);
    c.record(exchange('GET', '/forms/mine', { status: 200 }));
    const covered = Object.fromEntries(c.summary().operations.map((o) => [o.operationId, o.covered.length > 0]));
    expect(covered).toEqual({ getOne: false, getMine: true });
  });

  it('whatever the exchanges, items split into covered and missing, and totals and counts add up', () => {
    const paths = ['/open/forms/f', '/open/forms/f/submissions?page=1', '/open/forms/f/integrations', '/nowhere'];
    const arbitraryExchange = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
      path: fc.constantFrom(...paths),
      status: fc.option(fc.constantFrom(200, 204, 302, 401, 404, 422, 500), { nil: undefined }),
      body: fc.option(fc.dictionary(fc.constantFrom('data', 'message', 'id', 'x'), fc.integer()), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryExchange, { maxLength: 30 }), (exchanges) => {
        const c = createCoverageCollector('t', bundle, BASE);
        const empty = c.summary();
        for (const e of exchanges)
          c.record(
            exchange(e.method, e.path, {
              ...(e.status === undefined ? { transportError: 'refused' } : { status: e.status }),
              ...(e.body ? { requestBody: JSON.stringify(e.body), responseBody: JSON.stringify(e.body) } : {}),
            }),
          );
        const s = c.summary();
        const x = s.exchanges;
        expect(x.accepted + x.refused + x.other + x.unanswered).toBe(exchanges.length);
        const perOperation = s.operations.reduce(
          (n, o) => n + o.exchanges.accepted + o.exchanges.refused + o.exchanges.other + o.exchanges.unanswered,
          0,
        );
        expect(perOperation).toBe(x.matched);
        for (const kind of ['operation', 'parameter', 'property', 'response'] as const) {
          const key = (
            { operation: 'operations', parameter: 'parameters', property: 'properties', response: 'responses' } as const
          )[kind];
          const count = (list: 'covered' | 'missing') =>
            s.operations.reduce((n, o) => n + o[list].filter((i) => i.kind === kind).length, 0);
          expect(s.totals[key]).toEqual({ covered: count('covered'), total: count('covered') + count('missing') });
          // The items are the spec's: exchanges never add or remove one.
          expect(s.totals[key].total).toBe(empty.totals[key].total);
        }
      }),
    );
  });
});
