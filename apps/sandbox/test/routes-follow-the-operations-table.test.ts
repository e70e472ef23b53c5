// The sandbox serves each operation at the method and path of the generated operations table, and
// maps a request back to its operationId (the behaviour layer relies on it).
import { OPERATIONS } from '@forms-api/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { operationOf } from '../src/operations.js';
import { call, sandbox } from './support.js';

describe('the operations table', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('has a route for every operation', async () => {
    // Every unrouted operation at once, so a failure lists all that is left.
    const unrouted: string[] = [];
    for (const op of Object.values(OPERATIONS)) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const result = await call(sb.baseUrl, op.method, path, {
        token: sb.tokens.all,
        ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }),
      });
      if (/could not be found/.test(result.text)) unrouted.push(op.operationId);
    }
    expect(unrouted).toEqual([]);
  });

  it('maps method and path back to the operation, literal segments first', () => {
    for (const op of Object.values(OPERATIONS))
      expect(operationOf(op.method, `${op.path.replace(/\{[^}]+\}/g, 'x7')}?page=2`)).toBe(op.operationId);
    expect(operationOf('get', '/open/forms/11/submissions/file/abc')).toBe('downloadSubmissionFile');
    expect(operationOf('GET', '/open/forms//submissions')).toBeUndefined();
    expect(operationOf('PATCH', '/open/forms/11')).toBeUndefined();
  });
});
