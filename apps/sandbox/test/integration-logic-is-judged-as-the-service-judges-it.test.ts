// Issue 27: an integration's `logic` is judged the way the service's rule judges it
// (IntegrationLogicRule.php:120-166 at aee613da), in both behaviours: a tree the rule cannot walk
// is answered 500, an incomplete group or condition 422 with the rule's details, anything else is
// stored as sent. Which bodies fail with 500 comes from the spec (IntegrationInputFailingTheService).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

const BEHAVIOURS = ['contract', 'observed'] as const;

const body = (logic: unknown) => ({
  integration_id: 'webhook',
  status: 'inactive',
  data: { webhook_url: 'https://receiver.example.com/hook' },
  logic,
});
const condition = (extra: Record<string, unknown> = {}) => ({
  identifier: 'c1',
  value: { operator: 'is_not_empty', property_meta: { id: 'x', type: 'text' }, value: null },
  ...extra,
});

describe.each(BEHAVIOURS)('integration logic (%s)', (behaviour) => {
  let s: SandboxHandle;
  beforeAll(async () => {
    s = await sandbox({ behaviour });
  });
  afterAll(async () => s.close());
  const create = (logic: unknown) =>
    call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: s.tokens.all,
      body: body(logic),
      operationId: 'createFormIntegration',
    });

  it.each([
    ['a number', 17],
    ['a string', 'and'],
    ['a boolean', false],
    ['a group without children', { operatorIdentifier: 'and' }],
    ['a group with a scalar child', { operatorIdentifier: 'or', children: [1] }],
    ['a group with a null child', { operatorIdentifier: 'and', children: [condition(), null] }],
    ['a scalar child keyed by name', { operatorIdentifier: 'and', children: { first: 'x' } }],
    [
      'a nested group without children',
      { operatorIdentifier: 'and', children: [condition(), { operatorIdentifier: 'or' }] },
    ],
  ])('%s fails with 500 Server Error, as on the service, and nothing is stored', async (_label, logic) => {
    const before = await call(s.baseUrl, 'GET', '/open/forms/11/integrations', { token: s.tokens.all });
    const created = await create(logic);
    expect(created.status).toBe(500);
    expect(created.body).toEqual({ message: 'Server Error' });
    const after = await call(s.baseUrl, 'GET', '/open/forms/11/integrations', { token: s.tokens.all });
    expect(after.body).toEqual(before.body);
  });

  it.each([
    ['a group with an unknown operator', { operatorIdentifier: 'xor', children: [] }, 'missing operator'],
    ['a group whose children are text', { operatorIdentifier: 'and', children: 'x' }, 'wrong sub-condition type'],
    ['a condition without its body', { identifier: 'c1' }, 'missing condition body'],
    [
      'a condition without its field',
      { identifier: 'c1', value: { operator: 'equals' } },
      'missing condition property',
    ],
    [
      'a condition without its field type',
      { identifier: 'c1', value: { operator: 'equals', property_meta: { id: 'x' } } },
      'missing condition property type',
    ],
    [
      'two incomplete conditions in a group',
      {
        operatorIdentifier: 'or',
        children: [{ identifier: 'a' }, { identifier: 'b', value: { property_meta: { type: 'text' } } }],
      },
      'missing condition body, missing condition operator',
    ],
  ])('%s is refused with 422 and the rule details', async (_label, logic, details) => {
    const created = await create(logic);
    expect(created.status).toBe(422);
    expect((created.body as { errors: Record<string, string[]> }).errors.logic).toEqual([
      `The logic conditions are not complete. Error detail(s): ${details}`,
    ]);
  });

  it.each([
    ['an empty array', [], []],
    // The service keeps an empty object as an empty array; the contract does not say.
    ['an empty object', {}, behaviour === 'observed' ? [] : {}],
    ['null', null, []],
    ['an array the rule does not read', [1, 'two'], [1, 'two']],
    ['an object the rule does not read', { a: 1 }, { a: 1 }],
    ['a complete group', { operatorIdentifier: 'and', children: [condition()] }, undefined],
  ])('%s is accepted and stored as sent', async (_label, logic, listed) => {
    const created = await create(logic);
    expect(created.status).toBe(200);
    const stored = (created.body as { form_integration: { logic: unknown } }).form_integration.logic;
    expect(stored).toEqual(listed ?? logic);
  });
});
