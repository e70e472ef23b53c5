// addWorkspaceUser beyond the derived checks: it is sent an address no account can have (the
// reserved `.invalid` domain, new each time), so its answer is always an invitation, which the
// derived checks cancel through the link to cancelWorkspaceInvite. Never a real person added to
// the user's workspace, and the spec's example address is never invited.
import { randomUUID } from 'node:crypto';
import { handSuite, operationSender } from './common.js';
import { removeAfterwards } from './derive.js';

const operationId = 'addWorkspaceUser';

/** An email address no account has: `.invalid` never resolves (RFC 2606). */
export const unusedEmail = (): string => `forms-contract-${randomUUID()}@example.invalid`;

const send = operationSender(operationId, { body: () => ({ email: unusedEmail(), role: 'user' as const }) });

export const suite = handSuite({
  operationId,
  send,
  checks: [
    {
      name: 'an address already invited: 400',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const body = { email: unusedEmail(), role: 'user' as const };
        const first = await send(ctx, { body });
        const parsed = ctx.json(first);
        if (first.status === 200 && parsed.ok)
          removeAfterwards(ctx, ctx.operation(operationId), { workspaceId: ctx.target.ids.workspaceId }, parsed.value);
        ctx.expectResponse(first, { operationId, status: 200 });
        ctx.expectResponse(await send(ctx, { body }), { operationId, status: 400 });
      },
    },
  ],
});
