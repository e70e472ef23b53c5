// matchOperation, the one path→operation matcher (generated beside OPERATIONS): every operation's
// template with any parameter values matches back to it; literals win over parameters; what is
// ignored (query, fragment, method case) and what never matches (trailing slash, empty segment).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATH_ITEM_METHODS } from '@forms-api/spec/path-item-methods';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATIONS, matchOperation, type OperationSpec } from '../src/index.js';
import { operationRows, operationsModule } from '../scripts/operations-module.mjs';

const SPECS = Object.values(OPERATIONS) as readonly OperationSpec[];
const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));

/** A parameter value as a caller may send it: any non-empty text, slashes and escapes included. */
const paramValue = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.stringMatching(/^[0-9a-z_.-]{1,12}$/),
  fc.constantFrom('%2F', 'forms', 'file'),
);
const methodCase = (method: string) =>
  fc.constantFrom(method, method.toLowerCase(), method[0] + method.slice(1).toLowerCase());
const suffix = fc.constantFrom('', '?page=2', '?a=%zz&b=/x', '#top', '?');

describe('matchOperation over the spec', () => {
  it('maps every template, filled with any values, back to its operation and decoded values', () => {
    for (const spec of SPECS) {
      const names = paramNames(spec.path);
      const values = fc.record(
        Object.fromEntries(names.map((n) => [n, paramValue])) as Record<string, fc.Arbitrary<string>>,
      );
      fc.assert(
        fc.property(values, methodCase(spec.method), suffix, (params, method, tail) => {
          const match = matchOperation(method, fill(spec.path, params) + tail);
          expect(match).toEqual({ operationId: spec.operationId, params });
        }),
        { numRuns: 200 },
      );
    }
  });

  it('matches no operation with another method, an extra or missing segment, a trailing slash or an empty value', () => {
    // Another template may take such a path (GET /open/forms/x is getForm of a form "x", PUT
    // /open/workspaces/create updateWorkspace of a workspace "create"), never the route at hand.
    const routeOf = (method: string, path: string) => {
      const matched = matchOperation(method, path);
      return matched && SPECS.find((s) => s.operationId === matched.operationId)!.path;
    };
    for (const spec of SPECS) {
      const path = fill(spec.path, Object.fromEntries(paramNames(spec.path).map((n) => [n, '7'])));
      const sameRoute = SPECS.filter((s) => s.path === spec.path).map((s) => s.method);
      for (const other of PATH_ITEM_METHODS.map((m) => m.toUpperCase()).filter((m) => !sameRoute.includes(m as never)))
        expect(routeOf(other, path)).not.toBe(spec.path);
      expect(matchOperation(spec.method, `${path}/`)).toBeUndefined();
      expect(routeOf(spec.method, `${path}/x`)).not.toBe(spec.path);
      expect(matchOperation(spec.method, path.slice(0, path.lastIndexOf('/')))?.operationId).not.toBe(spec.operationId);
      expect(matchOperation(spec.method, `https://example.test${path}`)).toBeUndefined();
      if (spec.path.endsWith('}')) expect(matchOperation(spec.method, path.slice(0, -1))).toBeUndefined();
    }
    expect(matchOperation('GET', '/open/forms//submissions')).toBeUndefined();
    expect(matchOperation('GET', 'open/forms/1')).toBeUndefined();
  });

  it('compares literals as written and decodes values once, keeping a malformed escape as sent', () => {
    expect(matchOperation('GET', '/open/%66orms/1')).toBeUndefined();
    expect(matchOperation('GET', '/open/forms/a%2Fb')).toEqual({ operationId: 'getForm', params: { form: 'a/b' } });
    expect(matchOperation('GET', '/open/forms/%2541')).toEqual({ operationId: 'getForm', params: { form: '%41' } });
    expect(matchOperation('GET', '/open/forms/100%zz')).toEqual({ operationId: 'getForm', params: { form: '100%zz' } });
  });
});

describe('precedence between templates (generated from specs that overlap)', () => {
  const dir = mkdtempSync(join(import.meta.dirname, '.generated-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  /** Generates the operations module of a spec with these GET paths, in this order, and loads it. */
  async function matcherOf(paths: string[]): Promise<typeof matchOperation> {
    const bundle = {
      paths: Object.fromEntries(paths.map((p, i) => [p, { get: { operationId: `op${i}`, responses: { 200: {} } } }])),
    };
    const file = join(dir, `operations-${n++}.ts`);
    writeFileSync(file, operationsModule(operationRows(bundle)));
    return ((await import(file)) as { matchOperation: typeof matchOperation }).matchOperation;
  }

  const cases: { paths: string[]; request: string; winner: string }[] = [
    { paths: ['/forms/{id}', '/forms/new'], request: '/forms/new', winner: '/forms/new' },
    { paths: ['/a/{x}/c', '/a/b/{y}'], request: '/a/b/c', winner: '/a/b/{y}' },
    { paths: ['/{x}/b/c', '/a/{y}/{z}'], request: '/a/b/c', winner: '/a/{y}/{z}' },
    { paths: ['/a/{x}/{y}', '/a/{x}/c', '/a/b/{y}'], request: '/a/b/c', winner: '/a/b/{y}' },
  ];
  it.each(cases)(
    'a literal at the leftmost differing segment wins, whatever the spec order: $request',
    async ({ paths, request, winner }) => {
      for (const order of [paths, [...paths].reverse()]) {
        const match = await matcherOf(order);
        expect(order[Number(match('GET', request)?.operationId.slice(2))]).toBe(winner);
      }
    },
  );

  it('still matches the parameter route for any value other than the literal', async () => {
    const match = await matcherOf(['/forms/new', '/forms/{id}']);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((v) => encodeURIComponent(v) !== 'new'),
        (value) => {
          expect(match('GET', `/forms/${encodeURIComponent(value)}`)).toEqual({
            operationId: 'op1',
            params: { id: value },
          });
        },
      ),
    );
  });
});
