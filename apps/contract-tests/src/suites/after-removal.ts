// What a demanding user expects once a removal answered 2xx, derived from the spec's paths alone:
// the GET of the removed thing's own path answers 404, and the lists at its parent path no longer
// carry its id. The thing's path is the DELETE's up to its addressed parameter
// (`/open/forms/{form}`), its parent the path before that parameter (`/open/forms`).
import type { CheckContext } from '../check-context.js';
import { addressedParameter, type SpecOperation } from '../operations.js';
import { targetPath, type BasicCase, type Send, type SendOptions } from './common.js';
import type { Check } from './types.js';
import { listRows } from '../page-invariants.js';

type Operations = ReadonlyMap<string, SpecOperation>;
type Path = Record<string, string | number>;

/** The GETs that read back what `op` removes: of its own path (`resource`) and of its parent's, lists without a required query (`lists`). */
export function readBacksOfRemoval(op: SpecOperation, operations: Operations) {
  const addressed = addressedParameter(op);
  if (op.method !== 'DELETE' || !addressed) return undefined;
  const segments = op.path.split('/');
  const at = segments.indexOf(`{${addressed.name}}`);
  if (at < 0) return undefined;
  const own = segments.slice(0, at + 1).join('/');
  const parent = segments.slice(0, at).join('/');
  const gets = [...operations.values()].filter((o) => o.method === 'GET' && !o.public);
  const resource = gets.filter((o) => o.path === own || o.path === op.path);
  const lists = gets.filter((o) => o.path === parent && !o.parameters.some((p) => p.in === 'query' && p.required));
  return resource.length + lists.length > 0 ? { addressed, resource, lists } : undefined;
}

/** The ids of a list answer's items: a bare array, or the array under `data`. */
function listedIds(body: unknown): unknown[] {
  return (listRows(body) ?? []).map((item) => (item as { id?: unknown } | null)?.id);
}

/**
 * The check that removes something as the operation's happy path does (on what that case
 * addresses, usually a temporary one), then reads it back. Only the first page of a list is
 * read: the removed thing was just made, so a list ordered newest first shows it there.
 */
export function removalReadBackChecks(
  op: SpecOperation,
  operations: Operations,
  happyPath: BasicCase | undefined,
  send: Send,
  sendOf: (operationId: string) => Send,
): Check[] {
  const readBacks = readBacksOfRemoval(op, operations);
  if (!readBacks || !happyPath) return [];
  const { addressed, resource, lists } = readBacks;
  return [
    {
      name: 'after a removal: its path answers 404 and its parent lists drop it',
      operationId: op.operationId,
      on: 'live',
      writes: true,
      async run(ctx: CheckContext) {
        const request: SendOptions =
          typeof happyPath.request === 'function' ? await happyPath.request(ctx) : (happyPath.request ?? {});
        const removal = await send(ctx, request);
        const status = removal.status ?? 0;
        if (status < 200 || status > 299)
          return ctx.skip(
            `${op.operationId} answered ${status || 'nothing'}, not a removal (its happy path reports it)`,
          );
        const path = { ...targetPath(ctx, op), ...(request.path as Path) };
        const id = path[addressed.name];
        for (const get of resource)
          ctx.expectResponse(await sendOf(get.operationId)(ctx, { path }), {
            operationId: get.operationId,
            status: 404,
          });
        for (const list of lists) {
          const exchange = await sendOf(list.operationId)(ctx, { path });
          const body = ctx.expectResponse(exchange, { operationId: list.operationId, status: 200 });
          if (listedIds(body).some((listed) => String(listed) === String(id)))
            ctx.observe(
              'removed-still-listed',
              op.operationId,
              `${list.operationId} still lists ${addressed.identifies} ${id} after ${op.operationId} answered ${status}`,
              { expected: `no item with id ${id}`, received: `an item with id ${id}`, exchange },
            );
        }
      },
    },
  ];
}
