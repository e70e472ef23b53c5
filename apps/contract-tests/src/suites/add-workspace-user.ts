// addWorkspaceUser beyond the derived checks: it is sent an address no account can have (the
// reserved `.invalid` domain, new each time), so its answer is always an invitation, which the
// derived checks cancel through the link to cancelWorkspaceInvite. Never a real person added to
// the user's workspace, and the spec's example address is never invited.
import { randomUUID } from 'node:crypto';
import { handSuite, operationSender } from './common.js';

const operationId = 'addWorkspaceUser';

/** An email address no account has: `.invalid` never resolves (RFC 2606). */
export const unusedEmail = (): string => `forms-contract-${randomUUID()}@example.invalid`;

export const suite = handSuite({
  operationId,
  send: operationSender(operationId, { body: () => ({ email: unusedEmail(), role: 'user' }) }),
});
