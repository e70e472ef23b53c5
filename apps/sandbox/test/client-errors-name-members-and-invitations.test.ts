// The client's errors on the workspace operations, as a new user met them: a 404 of a member named
// the workspace ("workspace 1 does not exist"), a documented 400 (an address already invited) was
// "unexpected HTTP status 400", and a 403 sent the user to "that form's workspace".
import { createFormsClient, isFormsApiError } from '@forms-api/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { sandbox } from './support.js';

let s: SandboxHandle;
beforeAll(async () => {
  s = await sandbox({ behaviour: 'observed' });
});
afterAll(() => s.close());

const messageOf = async (call: Promise<unknown>): Promise<string> => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isFormsApiError(error)) throw new Error(`expected a FormsApiError, got ${String(error)}`);
  return error.message;
};

describe('client errors on workspace operations', () => {
  const forms = () => createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all, retry: { retries: 0 } });

  it('a member that is not one is named as the member of the workspace', async () => {
    const message = await messageOf(
      forms().operations.removeWorkspaceUser({ path: { workspaceId: 1, userId: 987654 } }),
    );
    expect(message).toContain('member 987654 of workspace 1 does not exist');
  });

  it('a 400 the spec documents is called an answer, not a surprise', async () => {
    const client = forms();
    const body = { email: `trial-${Date.now()}@example.invalid`, role: 'user' as const };
    const sent = await client.operations.addWorkspaceUser({ path: { workspaceId: 1 }, body });
    const message = await messageOf(client.operations.addWorkspaceUser({ path: { workspaceId: 1 }, body }));
    expect(message).toContain('a 400 the spec documents for addWorkspaceUser');
    expect(message).not.toContain('unexpected');
    const invite = (sent as { invite?: { id: number } }).invite!;
    await client.operations.cancelWorkspaceInvite({ path: { workspaceId: 1, inviteId: invite.id } });
  });

  it('a 403 on a workspace sends the user to the workspace, not to a form', async () => {
    const noWorkspaces = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.read, retry: { retries: 0 } });
    const message = await messageOf(noWorkspaces.operations.listWorkspaceUsers({ path: { workspaceId: 1 } }));
    expect(message).toContain('`workspaces-read`');
    expect(message).not.toContain("form's workspace");
  });
});
