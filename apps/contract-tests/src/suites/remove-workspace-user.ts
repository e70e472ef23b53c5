// A removed member reads the workspace no more. The suite holds no token of the member its happy
// path removes, so this check removes the suite's own user: it makes a workspace (the maker the
// spec links to the members list), removes itself (nothing stops an admin from it), and every read
// of that workspace's own resources must then refuse its token (403 or 404). Embedded sandboxes
// only: no one can delete the workspace afterwards, and a tenant would keep it.
import type { CheckContext } from '../check-context.js';
import { identifiedParameters, linkValue, provenanceOf } from '../operations.js';
import { readBacksOfRemoval } from './after-removal.js';
import { operationSender, setupFailed } from './common.js';
import type { Check } from './types.js';

const operationId = 'removeWorkspaceUser';

async function removedMemberReadsNoMore(ctx: CheckContext): Promise<void> {
  if (!ctx.target.embedded)
    ctx.skip("it removes the suite's own user from a workspace it made, which no one can delete afterwards");
  const operations = ctx.operations();
  const op = ctx.operation(operationId);
  const [container, member] = identifiedParameters(op);
  const members = readBacksOfRemoval(op, operations)?.lists[0];
  const containerOfMembers = members?.parameters.find((p) => p.name === container?.name);
  const provenance = members && containerOfMembers && provenanceOf(operations, members, containerOfMembers);
  if (!container || !member || !members || !provenance)
    return ctx.skip('the spec links no maker of what the members belong to');
  const made = await operationSender(provenance.creator.operationId)(ctx);
  const parsed = ctx.json(made);
  const id = linkValue(provenance.idExpression, {}, parsed.ok ? parsed.value : undefined);
  if (made.status !== 200 || (typeof id !== 'number' && typeof id !== 'string'))
    return setupFailed(`${provenance.creator.operationId} answered ${made.status ?? 'nothing'}`, made);
  const path = { [container.name]: id };
  const listed = ctx.expectResponse(await operationSender(members.operationId)(ctx, { path }), {
    operationId: members.operationId,
    status: 200,
  });
  const memberIds = Array.isArray(listed) ? listed.map((m) => (m as { id?: unknown } | null)?.id) : [];
  const self = memberIds[0];
  if (memberIds.length !== 1 || (typeof self !== 'number' && typeof self !== 'string'))
    return setupFailed(`what ${provenance.creator.operationId} made should have its maker alone as member`);
  const removal = await operationSender(operationId)(ctx, { path: { ...path, [member.name]: self } });
  ctx.expectResponse(removal, { operationId, status: 200 });
  if (removal.status !== 200) return;
  // Every read under the container's own path that nothing else parameterises.
  const prefix = `${op.path.slice(0, op.path.indexOf(`{${container.name}}`))}{${container.name}}/`;
  const reads = [...operations.values()].filter(
    (o) =>
      o.method === 'GET' &&
      !o.public &&
      o.path.startsWith(prefix) &&
      identifiedParameters(o).length === 1 &&
      !o.parameters.some((p) => p.in === 'query' && p.required),
  );
  if (reads.length === 0) return ctx.skip(`the spec has no read under ${prefix} to try the removed member's token on`);
  for (const read of reads)
    ctx.expectResponse(await operationSender(read.operationId)(ctx, { path }), {
      operationId: read.operationId,
      status: [403, 404],
    });
}

/** The check, run beside removeWorkspaceUser's happy path (see workspace-members.ts). */
export const removedMemberReadsNoMoreCheck: Check = {
  name: 'the removed member reads the workspace no more (403 or 404)',
  operationId,
  on: 'live',
  writes: true,
  destructive: true,
  run: removedMemberReadsNoMore,
};
