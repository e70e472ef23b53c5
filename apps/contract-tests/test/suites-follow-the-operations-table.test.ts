// The suites take the spec's facts from the generated operations table: one suite per operation, one
// mock check per documented status, and on live targets a 401 and a 403 for every secured operation,
// the 403 with a token that carries none of the abilities the operation accepts.
import { OPERATIONS, type OperationId } from '@forms-api/types';
import { describe, expect, it } from 'vitest';
import { suitesFor } from '../src/suites/index.js';
import { loadSpec } from '../src/spec.js';
import { TOKEN_ROLES, tokenLacking } from '../src/targets/target.js';

const operations = Object.values(OPERATIONS);
const allSuites = suitesFor(loadSpec().bundle);

describe('suites and the operations table', () => {
  it('has one suite per operation of the spec', () => {
    expect(allSuites.map((s) => s.operationId).sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it('checks each documented status on the mock, and nothing else', () => {
    for (const { operationId, statuses } of operations) {
      const names = allSuites
        .find((s) => s.operationId === operationId)!
        .checks.filter((c) => c.name.startsWith('documented '))
        .map((c) => c.name);
      expect(names, operationId).toEqual(statuses.map((status) => `documented ${status} (Prefer: code=${status})`));
    }
  });

  it('checks 401 and 403 on live targets for every secured operation', () => {
    for (const { operationId, public: isPublic } of operations) {
      const live = allSuites
        .find((s) => s.operationId === operationId)!
        .checks.filter((c) => c.on === 'live')
        .map((c) => c.name);
      expect(
        live.some((n) => n.endsWith(': 401')),
        `${operationId} 401`,
      ).toBe(!isPublic);
      expect(
        live.some((n) => n.includes('403') && n.startsWith('token without')),
        `${operationId} 403`,
      ).toBe(!isPublic);
    }
  });

  it('runs the happy path of an operation that changes data only with --write', () => {
    for (const { operationId, method, public: isPublic } of operations) {
      if (method === 'GET' || isPublic) continue;
      const happy = allSuites
        .find((s) => s.operationId === operationId)!
        .checks.find((c) => c.name === 'happy path: 200 and a valid body');
      expect(happy?.writes, operationId).toBe(true);
    }
  });

  it('picks for each 403 a token carrying none of the accepted abilities, the most specific one', () => {
    const chosen = Object.fromEntries(
      operations.filter((o) => !o.public).map((o) => [o.operationId, tokenLacking(o.abilities)]),
    );
    for (const [operationId, token] of Object.entries(chosen)) {
      const carried: readonly string[] = TOKEN_ROLES[token].carries;
      expect(
        OPERATIONS[operationId as OperationId].abilities.some((a) => carried.includes(a)),
        operationId,
      ).toBe(false);
    }
    expect(chosen).toMatchObject({
      getForm: 'tokenWithoutAbilities',
      listFormSubmissions: 'tokenWithoutFormsRead',
      updateFormSubmission: 'tokenWithoutFormsWrite',
      listFormIntegrations: 'tokenWithoutManageIntegrations',
    });
  });
});
