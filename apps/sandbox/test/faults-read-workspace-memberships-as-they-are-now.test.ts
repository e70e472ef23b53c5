// The fault layer judges membership by the workspace's members as they are now: a member removed
// during the run is an outsider to it (before, it read the seed and still saw the member).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

describe('faults and memberships changed during a run', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox({ faults: ['foreign-form-readable'] });
  });
  afterAll(() => sb.close());

  it('treat a member removed during the run as outside the workspace (foreign-form-readable answers for them)', async () => {
    // The read-only member (user 3) can read form 11 of workspace 1 while a member.
    expect((await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.readonly })).status).toBe(200);
    const removed = await call(sb.baseUrl, 'DELETE', '/open/workspaces/1/users/3/remove', { token: sb.tokens.all });
    expect(removed.status).toBe(200);
    // The fault answers an outsider as if they were a member: it must see user 3 as one now.
    expect((await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.readonly })).status).toBe(200);
    // Without the fault the same request is refused: the removal itself took effect.
    const plain = await sandbox();
    try {
      await call(plain.baseUrl, 'DELETE', '/open/workspaces/1/users/3/remove', { token: plain.tokens.all });
      expect((await call(plain.baseUrl, 'GET', '/open/forms/11', { token: plain.tokens.readonly })).status).toBe(403);
    } finally {
      await plain.close();
    }
  });
});
