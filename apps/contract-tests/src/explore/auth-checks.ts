// Who may call an operation: no token, a wrong token, a forged token or a token lacking the ability
// is refused by every secured operation, and a write without the right (those, or on another
// workspace's form) is refused and changes nothing.
import fc from 'fast-check';
import type { SpecOperation } from '@forms-api/spec/operations';
import { withTargetIds } from '../suites/common.js';
import type { Explorer } from './explorer.js';
import { bodySchemaName, REQUEST_BODIES, setUp } from './request-bodies.js';
import {
  describeWho,
  forgedToken,
  isWrite,
  lackingToken,
  missingIds,
  pathOf,
  request,
  targetIds,
  UNKNOWN_IDS,
  WRONG_TOKEN,
  type Who,
} from './requests.js';
import { asCheck, type ExploreCheck } from './search.js';

/**
 * Authentication and abilities on every secured operation: reads on the target's ids (or a
 * temporary thing, when the target names none and may be written), writes on ids no tenant has, so
 * that nothing can change whatever the answer; there a token lacking the ability may meet the 404
 * first (the 403 of a write on real ids is the writes-without-the-right check's). Every case, every run.
 */
export function tokenChecks(explorer: Explorer): ExploreCheck[] {
  const { secured, options, childKind, creatorOf, createTemporary, generatedBody, explore } = explorer;
  const checks: ExploreCheck[] = [];
  for (const op of secured) {
    const whos = ['none', 'wrong', 'forged', 'lacking'] as const;
    checks.push({
      name: 'explore: no token, a wrong token, a forged token, a token lacking the ability',
      operationId: asCheck(op),
      on: 'live',
      exhaustive: true,
      run: async (ctx) => {
        const ids: Record<string, unknown> = isWrite(op) ? { ...UNKNOWN_IDS } : { ...targetIds(ctx.target) };
        const kind = childKind(op);
        if (kind && ids[kind] === undefined && creatorOf(kind) && ctx.target.write)
          ids[kind] = (await createTemporary(ctx, kind)).id;
        const path = pathOf(op, ids);
        // A read on an unknown id may answer 404 before the token is judged: it needs the target's ids.
        if (!path) return ctx.skip(`needs ${missingIds(op, ids)}`);
        const body = withTargetIds(ctx, op, fc.sample(generatedBody(op), { seed: options.seed, numRuns: 1 })[0]);
        await explore(
          ctx,
          `${op.operationId} auth`,
          fc.constantFrom<(typeof whos)[number]>(...whos),
          async (scratch, who) => {
            const token =
              who === 'none'
                ? null
                : who === 'wrong'
                  ? WRONG_TOKEN
                  : who === 'forged'
                    ? forgedToken(scratch)
                    : lackingToken(scratch, op.operationId);
            if (token === false) return;
            const exchange = await request(scratch, op, { path, body, token });
            const status = who !== 'lacking' ? [401] : isWrite(op) ? [403, 404] : [403];
            scratch.expectResponse(exchange, { operationId: op.operationId, status });
          },
          1,
          (who) => `${op.operationId} ${describeWho(who)}`,
          [...whos],
          true,
        );
      },
    });
  }
  return checks;
}

/**
 * Writes without the right: no token, a wrong token, a token lacking the ability, another workspace's form.
 * Each must be refused, and change nothing: what it addresses is read back after every one. A
 * write takes a body whose change a read-back can see (REQUEST_BODIES), or none. It addresses a
 * thing of the form or workspace (a creation adds one), never the form or the workspace itself,
 * and a removal only what the check made: should a tenant wrongly accept it, the user's own data
 * is not what goes.
 */
export function writesWithoutTheRightChecks(explorer: Explorer): ExploreCheck[] {
  const { writes, childKind, collectionOf, creatorOf, writeIds, rowsOf, explore, deleteCreated, restoreAfterwards } =
    explorer;
  const checks: ExploreCheck[] = [];
  const withoutTheRight = writes.filter((op) => {
    const kind = childKind(op);
    return (
      (!op.jsonBody || REQUEST_BODIES[bodySchemaName(op) ?? ''] !== undefined) &&
      (op.method === 'POST' ? collectionOf(op) !== undefined || kind !== undefined : kind !== undefined) &&
      (op.method !== 'DELETE' || (kind !== undefined && creatorOf(kind) !== undefined))
    );
  });
  if (withoutTheRight.length > 0)
    checks.push({
      name: "explore: writes with no token, a wrong token, a token lacking the ability or on another workspace's form change nothing",
      operationId: asCheck(withoutTheRight[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const ids = await writeIds(ctx, withoutTheRight, setup);
        const reachable = withoutTheRight.filter(
          (op) => pathOf(op, ids) && (!op.jsonBody || REQUEST_BODIES[bodySchemaName(op) ?? '']?.changed(setup)),
        );
        if (reachable.length === 0) return ctx.skip('no write the target can address (set FORMS_API_SUBMISSION_ID)');
        // What each list a creation adds to held before: a read-back compares against it.
        const before = new Map<SpecOperation, Set<unknown>>();
        for (const list of new Set(reachable.filter((op) => op.method === 'POST').map(collectionOf)))
          if (list)
            before.set(list, new Set(((await rowsOf(ctx, list, pathOf(list, ids)!)).rows ?? []).map((r) => r.id)));
        const whos: Who[] = [
          'none',
          'wrong',
          'lacking',
          ...(ctx.target.ids.foreignFormId ? (['foreign'] as const) : []),
        ];
        await explore(
          ctx,
          'writes without the right',
          fc.tuple(fc.constantFrom(...reachable), fc.constantFrom(...whos)),
          async (scratch, [op, who]) => {
            const token =
              who === 'none'
                ? null
                : who === 'wrong'
                  ? WRONG_TOKEN
                  : who === 'lacking'
                    ? lackingToken(scratch, op.operationId)
                    : undefined;
            if (token === false) return;
            const parent = who === 'foreign' ? ctx.target.ids.foreignFormId! : ids.form;
            const path = pathOf(op, { ...ids, form: parent })!;
            const table = REQUEST_BODIES[bodySchemaName(op) ?? ''];
            const body = op.jsonBody ? table?.changed(setup) : undefined;
            const exchange = await request(scratch, op, { path, body, token });
            const expected = who === 'foreign' ? [403, 404] : who === 'lacking' ? [403] : [401];
            const accepted = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
            if (accepted)
              scratch.observe(
                'write-without-the-right-accepted',
                op.operationId,
                `${op.operationId} ${describeWho(who)} answered ${exchange.status}`,
                { expected: expected.join(' or '), received: String(exchange.status), exchange },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: expected });
            // Read back: nothing created, changed or deleted (and whatever was is undone).
            if (accepted && op.method === 'POST') deleteCreated(scratch, op, path, exchange);
            const list = collectionOf(op);
            if (!list) return;
            const kind = childKind(op);
            const id = kind === undefined ? undefined : ids[kind];
            const snapshot = before.get(list);
            const { rows } = await rowsOf(scratch, list, pathOf(list, ids)!, snapshot ? undefined : id);
            if (!rows) return;
            const mine = rows.find((r) => r.id === id);
            const created = snapshot ? rows.filter((r) => !snapshot.has(r.id)) : [];
            const remove = writes.find((w) => w.method === 'DELETE' && collectionOf(w) === list);
            for (const extra of created)
              if (remove)
                scratch.onCleanup(`delete ${String(extra.id)}`, async () => {
                  await request(scratch, remove, { path: pathOf(remove, { ...ids, [childKind(remove)!]: extra.id })! });
                });
            // A temporary thing of the check is on the list's first page; a submission may be further on.
            const gone = id !== undefined && !mine && creatorOf(kind!) !== undefined;
            const changedTo = mine && body ? changedIn(mine, body, table?.base(setup)) : undefined;
            const changed =
              created.length > 0
                ? `${created.map((r) => String(r.id)).join(', ')} was created`
                : gone
                  ? `${kind} ${String(id)} is gone`
                  : changedTo
                    ? `${kind} ${String(id)} was changed (it holds ${changedTo})`
                    : undefined;
            if (!changed) return;
            if (changedTo) restoreAfterwards(scratch, op, pathOf(op, ids)!, table?.base(setup));
            if (gone)
              scratch.fail({
                kind: 'setup',
                message: `the check's ${kind} ${String(id)} was deleted by the case; later cases skip it`,
              });
            scratch.observe(
              'refused-write-changed-state',
              op.operationId,
              `${changed} after ${op.operationId} ${describeWho(who)}`,
              { exchange },
            );
          },
          3,
          ([op, who]) => `${op.operationId} ${describeWho(who)}`,
          // A covering set first, whatever the seed: each write and each kind of caller at least once.
          reachable.map((op, i) => [op, whos[i % whos.length]!] as [SpecOperation, Who]),
        );
      },
    });
  return checks;
}

/** The first text `changed` holds that `base` does not, when `row` holds it too: what a write changed. */
function changedIn(row: unknown, changed: unknown, base: unknown): string | undefined {
  const texts = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : value !== null && typeof value === 'object'
        ? Object.values(value).flatMap(texts)
        : [];
  const before = new Set(texts(base));
  const held = JSON.stringify(row);
  return texts(changed)
    .filter((text) => !before.has(text))
    .map((text) => JSON.stringify(text))
    .find((text) => held.includes(text));
}
