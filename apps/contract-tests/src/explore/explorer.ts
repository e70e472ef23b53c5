// What every family of explore checks shares, built once per suite: the spec's operations as the
// explorer sorts them (secured, writes, the create-follow-delete sequences their links describe, the
// list a thing is in), the search that runs a check's cases, and the temporary resources a check
// makes, reads back and undoes.
import fc from 'fast-check';
import type { SpecLink, SpecOperation } from '@forms-api/spec/operations';
import { operationsOf, takesQuery } from '../operations.js';
import type { CheckContext } from '../check-context.js';
import { createLedgerIndex } from '../drift.js';
import { CheckFailed, type Exchange } from '../model.js';
import type { SpecArtifacts } from '../spec.js';
import { withTargetIds } from '../suites/common.js';
import { bodySchemaName, generatedBodyOf, REQUEST_BODIES, type Setup } from './request-bodies.js';
import { fillable, isWrite, linkParameters, pathOf, pathParameters, request, targetIds, type Ids } from './requests.js';
import { schemaArbitraries } from './schema-arbitrary.js';
import { createSearch, type ExploreCheck, type ExploreOptions } from './search.js';

/** The parameter of a sequence's delete link that takes the created id from the creation's answer. */
export const createdParameter = (deleteLink: SpecLink): string | undefined =>
  Object.entries(deleteLink.parameters).find(([, e]) => e.startsWith('$response.body'))?.[0];

/** What the explore checks of one suite share (`createExplorer`): each family of checks takes it. */
export type Explorer = ReturnType<typeof createExplorer>;

/**
 * The explorer of one suite: `checks` are the suite's explore checks, filled before any of them runs
 * (each target's budget is shared among them).
 */
export function createExplorer(spec: SpecArtifacts, options: ExploreOptions, checks: readonly ExploreCheck[]) {
  const byId = operationsOf(spec.bundle);
  const operations = [...byId.values()];
  const operationOf = (id: string): SpecOperation => {
    const op = byId.get(id);
    if (!op) throw new Error(`a link leads to ${id}, an operation the spec does not have`);
    return op;
  };
  const arbitraries = schemaArbitraries(spec.bundle);
  const ledger = createLedgerIndex(spec.ledger);
  const { explore, exploreCases } = createSearch(options, ledger, checks);

  const generatedBody = (op: SpecOperation) => generatedBodyOf(arbitraries, op);

  const secured = operations.filter((op) => !op.public && fillable(op));
  const writes = secured.filter(isWrite);
  /** The operations whose 200 links lead to a delete: what they create can be followed, deleted, and followed again. */
  const sequences = operations.flatMap((op) => {
    const deleteLink = op.links.find((link) => operationOf(link.operationId).method === 'DELETE');
    // A read makes nothing: a list linking to its first item's removal would remove the user's own.
    return deleteLink && isWrite(op) && !op.public && fillable(op) ? [{ create: op, deleteLink }] : [];
  });
  /** A link that addresses what its operation made: one of its parameters comes from the answer. */
  const addressesTheMade = (link: SpecLink) =>
    Object.values(link.parameters).some((expression) => expression.startsWith('$response.body'));
  /** What a link's operation answers once the thing it addresses is gone: an unknown id's status. */
  const goneStatus = (link: SpecLink) =>
    pathParameters(operationOf(link.operationId)).find((p) => link.parameters[p.name]?.startsWith('$response.body'))
      ?.unknownStatus ?? 404;
  /** The list a thing is in: the GET of the path a creation posts to, or of an item's path without its last parameter. */
  const collectionOf = (op: SpecOperation): SpecOperation | undefined => {
    const parent = op.method === 'POST' ? op.path : op.path.replace(/\/\{[^/}]+\}$/, '');
    return parent === op.path && op.method !== 'POST'
      ? undefined
      : operations.find((o) => o.method === 'GET' && o.path === parent && !o.public);
  };
  /** What an operation addresses beyond its form or workspace (a submission, an integration), if anything. */
  const childKind = (op: SpecOperation) =>
    pathParameters(op).find((p) => p.identifies !== 'form' && p.identifies !== 'workspace')?.identifies;
  /** A sequence that creates a thing of `kind`: its delete link takes the created id from the response. */
  const creatorOf = (kind: string) =>
    sequences.find(({ deleteLink }) =>
      pathParameters(operationOf(deleteLink.operationId)).some(
        (p) => p.name === createdParameter(deleteLink) && p.identifies === kind,
      ),
    );

  /**
   * Creates a thing of `kind` through the spec's sequence for it, with a safe body, on `form` (the
   * target's by default), and registers its deletion (through the delete link) as a cleanup.
   * `remove` deletes it now and returns the exchange.
   */
  async function createTemporary(
    ctx: CheckContext,
    kind: string,
    form: unknown = ctx.target.ids.formId,
  ): Promise<{ id: unknown; remove: () => Promise<Exchange> }> {
    const sequence = creatorOf(kind)!;
    const path = pathOf(sequence.create, { ...targetIds(ctx.target), form })!;
    // The table's plain body where it has one: a fixture must not fail on a generated oddity the service refuses.
    const body =
      REQUEST_BODIES[bodySchemaName(sequence.create) ?? '']?.base() ??
      withTargetIds(
        ctx,
        sequence.create,
        fc.sample(generatedBody(sequence.create), { seed: options.seed, numRuns: 1 })[0],
      );
    const exchange = await request(ctx, sequence.create, { path, body });
    const parsed = exchange.status === 200 ? ctx.json(exchange) : undefined;
    const deletePath = parsed?.ok ? linkParameters(sequence.deleteLink, path, parsed.value) : {};
    if (!parsed?.ok || Object.values(deletePath).some((v) => v === undefined))
      throw new CheckFailed([
        {
          kind: 'setup',
          message: `could not create a temporary ${kind} (${sequence.create.operationId} answered ${exchange.status ?? 'nothing'})`,
          exchange,
        },
      ]);
    const deleteOp = operationOf(sequence.deleteLink.operationId);
    let removed = false;
    const remove = async () => {
      removed = true;
      return request(ctx, deleteOp, { path: deletePath });
    };
    ctx.onCleanup(`delete the temporary ${kind}`, async () => {
      if (removed) return;
      const gone = await remove();
      if (gone.status !== 200 && gone.status !== 204 && gone.status !== 404)
        ctx.fail({
          kind: 'setup',
          message: `deleting the temporary ${kind} answered ${gone.status ?? 'nothing'}`,
          exchange: gone,
        });
    });
    return { id: deletePath[createdParameter(sequence.deleteLink)!], remove };
  }

  /**
   * Ids for the write checks: the target's, with a temporary thing of every kind a sequence creates
   * (the check's own, deleted after it), and no submission unless the one under test was found.
   */
  async function writeIds(ctx: CheckContext, ops: SpecOperation[], setup: Setup): Promise<Ids> {
    const ids: Record<string, unknown> = { ...targetIds(ctx.target), submission: setup.original?.id };
    for (const kind of new Set(ops.map(childKind)))
      if (kind !== undefined && creatorOf(kind)) ids[kind] = (await createTemporary(ctx, kind)).id;
    return ids;
  }

  /** Rows of a list (an array, or a page's `data`), page by page up to 20 pages, or until the row with id `until`. */
  async function rowsOf(ctx: CheckContext, list: SpecOperation, path: Record<string, unknown>, until?: unknown) {
    const paged = takesQuery(list, 'page');
    const rows: Array<Record<string, any>> = [];
    let exchange: Exchange | undefined;
    for (let page = 1; page <= 20; page++) {
      exchange = await request(ctx, list, { path, ...(paged ? { query: { page } } : {}) });
      const body = ctx.expectResponse(exchange, { operationId: list.operationId, status: 200 }) as any;
      const data = Array.isArray(body) ? body : body?.data;
      if (!Array.isArray(data)) return { rows: undefined, exchange };
      rows.push(...data);
      if (until !== undefined && data.some((row) => row?.id === until)) break;
      if (!paged || !body?.meta?.last_page || page >= body.meta.last_page) break;
    }
    return { rows, exchange };
  }

  /** Registers a cleanup that sends an update's base body again (a submission's own answers, a fixture's own settings). */
  function restoreAfterwards(ctx: CheckContext, op: SpecOperation, path: Record<string, unknown>, base: unknown): void {
    ctx.onCleanup(`restore what ${op.operationId} changed`, async () => {
      const restored = await request(ctx, op, { path, body: base });
      if (restored.status !== 200)
        ctx.fail({ kind: 'setup', message: `restoring answered ${restored.status ?? 'nothing'}`, exchange: restored });
    });
  }

  /** Registers the deletion (through the spec's delete link) of what an accepted creation created. */
  function deleteCreated(
    ctx: CheckContext,
    op: SpecOperation,
    path: Record<string, unknown>,
    exchange: Exchange,
  ): void {
    const sequence = sequences.find((s) => s.create === op);
    const parsed = ctx.json(exchange);
    if (!sequence || !parsed.ok) return;
    const deletePath = linkParameters(sequence.deleteLink, path, parsed.value);
    if (Object.values(deletePath).some((v) => v === undefined)) return;
    ctx.onCleanup(`delete what ${op.operationId} created`, async () => {
      await request(ctx, operationOf(sequence.deleteLink.operationId), { path: deletePath });
    });
  }

  /** Undoes an accepted write: an update gets its base body back, a creation is deleted. */
  function undo(
    ctx: CheckContext,
    op: SpecOperation,
    path: Record<string, unknown>,
    base: unknown,
    exchange: Exchange,
  ) {
    if (op.method === 'PUT' || op.method === 'PATCH') restoreAfterwards(ctx, op, path, base);
    if (op.method === 'POST') deleteCreated(ctx, op, path, exchange);
  }

  return {
    spec,
    options,
    arbitraries,
    operations,
    operationOf,
    secured,
    writes,
    sequences,
    addressesTheMade,
    goneStatus,
    collectionOf,
    childKind,
    creatorOf,
    generatedBody,
    explore,
    exploreCases,
    createTemporary,
    writeIds,
    rowsOf,
    restoreAfterwards,
    deleteCreated,
    undo,
  };
}
