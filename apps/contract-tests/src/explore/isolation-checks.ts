// What one parent holds stays out of reach from another: a form's submissions and integrations
// through another form's path, another workspace's form or workspace, and the target's workspace
// and forms with another user's token.
import fc from 'fast-check';
import { tokenVariable, type Target } from '../targets/target.js';
import type { Explorer } from './explorer.js';
import { bodySchemaName, REQUEST_BODIES, setUp } from './request-bodies.js';
import { identifies, pathOf, pathParameters, request, targetIds, UNKNOWN_IDS, type Ids } from './requests.js';
import { asCheck, type ExploreCheck } from './search.js';

const defined = (ids: Ids): Ids => Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined));

/**
 * Wrong parent: what a form holds (a submission, an integration), addressed through another form's path.
 */
export function wrongParentChecks(explorer: Explorer): ExploreCheck[] {
  const { secured, childKind, creatorOf, createTemporary, explore } = explorer;
  const checks: ExploreCheck[] = [];
  const children = secured.filter((op) => identifies(op, 'form') && childKind(op) !== undefined);
  if (children.length > 0)
    checks.push({
      name: "explore: what a form holds, through another form's path, answers 404",
      operationId: asCheck(children[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const other = ctx.target.ids.freeFormId ?? ctx.target.ids.captchaFormId;
        if (!other) return ctx.skip('needs another form (FORMS_API_FREE_FORM_ID or FORMS_API_CAPTCHA_FORM_ID)');
        const setup = await setUp(ctx);
        const own: Ids = { ...targetIds(ctx.target), submission: setup.original?.id };
        // A thing a sequence creates is a temporary one per case; another (a submission) the target's own.
        const reachable = children.filter((op) => creatorOf(childKind(op)!) || own[childKind(op)!] !== undefined);
        if (reachable.length === 0) return ctx.skip('needs FORMS_API_SUBMISSION_ID (a submission of the form)');
        await explore(
          ctx,
          'wrong parent',
          fc.constantFrom(...reachable),
          async (scratch, op) => {
            const kind = childKind(op)!;
            const temporary = creatorOf(kind) ? await createTemporary(scratch, kind) : undefined;
            const id = temporary ? temporary.id : own[kind];
            // Its own content, so only the parent in the path can be wrong (and nothing changes should it be accepted).
            const body = op.jsonBody ? REQUEST_BODIES[bodySchemaName(op) ?? '']?.base(setup) : undefined;
            const exchange = await request(scratch, op, {
              path: pathOf(op, { ...own, form: other, [kind]: id })!,
              body,
            });
            if (exchange.status === 200)
              scratch.observe(
                'reachable-through-another-form',
                op.operationId,
                `${kind} ${String(id)} of form ${ctx.target.ids.formId} answers 200 through form ${other}`,
                { expected: '404', received: '200', exchange },
              );
            // A body is judged against the other form (its fields) and may be refused before the lookup.
            else
              scratch.expectResponse(exchange, {
                operationId: op.operationId,
                status: op.jsonBody && op.statuses.includes(422) ? [404, 422] : [404],
              });
            if (!temporary) return;
            // Still there, and deleted through its own form.
            const removed = await temporary.remove();
            scratch.expectResponse(removed, { operationId: creatorOf(kind)!.deleteLink.operationId, status: 200 });
          },
          4,
          (op) => op.operationId,
          reachable,
        );
      },
    });
  return checks;
}

/**
 * What another workspace holds: every read of its form, through the foreign form, and every read
 * of the workspace itself (its forms, members, invitations), through the foreign workspace. Each
 * parent is probed on every path that has it, every run.
 */
export function foreignParentChecks(explorer: Explorer): ExploreCheck[] {
  const { secured, exploreCases } = explorer;
  const checks: ExploreCheck[] = [];
  const foreignParents = [
    {
      what: "another workspace's form",
      reads: secured.filter((op) => op.method === 'GET' && identifies(op, 'form')),
      id: (target: Target) => target.ids.foreignFormId,
      ids: (id: number): Ids => ({ form: id }),
      setting: 'FORMS_API_FOREIGN_FORM_ID (a form of a workspace the token cannot reach)',
    },
    {
      what: 'another workspace',
      reads: secured.filter((op) => op.method === 'GET' && identifies(op, 'workspace') && !identifies(op, 'form')),
      id: (target: Target) => target.ids.foreignWorkspaceId,
      ids: (id: number): Ids => ({ workspace: id }),
      setting: "FORMS_API_FOREIGN_WORKSPACE_ID (a workspace the token's user is no member of)",
    },
  ];
  for (const parent of foreignParents.filter((p) => p.reads.length > 0))
    checks.push({
      name: `explore: ${parent.what} is refused by every read`,
      operationId: asCheck(parent.reads[0]!),
      on: 'live',
      run: async (ctx) => {
        const foreign = parent.id(ctx.target);
        if (!foreign) return ctx.skip(`set ${parent.setting}`);
        // What the target does not name is an unknown id: refused either way.
        const filled = { ...UNKNOWN_IDS, ...defined(targetIds(ctx.target)), ...parent.ids(foreign) };
        const label = `${Object.keys(parent.ids(foreign))[0]} ${foreign}`;
        await exploreCases(
          ctx,
          `${parent.what}`,
          parent.reads,
          async (scratch, op) => {
            const exchange = await request(scratch, op, { path: pathOf(op, filled)! });
            if (exchange.status === 200)
              scratch.observe('foreign-parent-readable', op.operationId, `${label} of another workspace answers 200`, {
                expected: '401, 403 or 404',
                received: '200',
                exchange,
              });
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: [403, 404] });
          },
          1,
          (op) => `${op.operationId} on ${label}`,
          [],
          // A few cases (one per read that has the parent): every one, every run.
          true,
        );
      },
    });
  return checks;
}

/**
 * Another user's real token on every read of the target's workspace and forms: 403 or 404,
 * never the data. The target's own token reads each first (the case is moot where it cannot),
 * so a service that decides access by the resource alone (a cache keyed by the form, not by
 * who asks) is caught as well as one that checks no membership. Reads only: a write with a
 * token that should not reach real data is not sent.
 */
export function otherUserChecks(explorer: Explorer): ExploreCheck[] {
  const { operations, secured, collectionOf, childKind, creatorOf, createTemporary, exploreCases } = explorer;
  const checks: ExploreCheck[] = [];
  const workspaceItem = operations.find(
    (op) => pathParameters(op).length === 1 && identifies(op, 'workspace') && op.path.endsWith('}'),
  );
  const workspaceList = workspaceItem && collectionOf(workspaceItem);
  const otherUserReads = secured.filter(
    (op) => op.method === 'GET' && (identifies(op, 'workspace') || identifies(op, 'form')),
  );
  if (otherUserReads.length > 0)
    checks.push({
      name: "explore: another user's token is refused by every read of the target's workspace and forms",
      operationId: asCheck(otherUserReads[0]!),
      on: 'live',
      exhaustive: true,
      run: async (ctx) => {
        const other = ctx.token('otherUserToken');
        // The token must be a real one of a user outside the workspace, or every refusal proves
        // nothing: the list of the user's workspaces (the collection of a workspace's own path) says.
        if (workspaceList) {
          const listed = await request(ctx, workspaceList, { path: {}, token: other });
          const body = ctx.json(listed);
          const rows: unknown = body.ok
            ? Array.isArray(body.value)
              ? body.value
              : (body.value as any)?.data
            : undefined;
          if (listed.status !== 200 || !Array.isArray(rows))
            return ctx.fail({
              kind: 'setup',
              message: `${tokenVariable('otherUserToken')} was answered ${listed.status ?? 'nothing'} by ${workspaceList.operationId}: set a valid token (every ability) of another user`,
              exchange: listed,
            });
          if (rows.some((w) => (w as { id?: unknown })?.id === ctx.target.ids.workspaceId))
            return ctx.skip(
              `the user of ${tokenVariable('otherUserToken')} is a member of workspace ${ctx.target.ids.workspaceId}: set a token of a user outside it`,
            );
        }
        const ids: Record<string, unknown> = { ...targetIds(ctx.target) };
        for (const kind of new Set(otherUserReads.map(childKind)))
          if (kind && ids[kind] === undefined && creatorOf(kind) && ctx.target.write)
            ids[kind] = (await createTemporary(ctx, kind)).id;
        const reachable = otherUserReads.filter((op) => pathOf(op, ids));
        await exploreCases(
          ctx,
          "another user's token",
          reachable,
          async (scratch, op) => {
            const path = pathOf(op, ids)!;
            const own = await request(scratch, op, { path });
            if (own.status !== 200) return;
            const exchange = await request(scratch, op, { path, token: other });
            if (exchange.status === 200)
              scratch.observe(
                'other-user-reads-the-target',
                op.operationId,
                `a token of another user (no member of workspace ${ctx.target.ids.workspaceId}) answers 200`,
                { expected: '403 or 404', received: '200', exchange },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: [403, 404] });
          },
          2,
          (op) => `${op.operationId} with another user's token`,
          [],
          true,
        );
      },
    });
  return checks;
}
