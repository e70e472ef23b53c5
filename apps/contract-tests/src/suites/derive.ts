// The checks every operation of the spec gets with no hand edit: its documented statuses and
// Prism's 401 on the mock; on live targets the happy path, no token (401), a token without the
// ability (403) and an unknown id (404, or the spec's `x-unknown-status`), each request addressed
// by what its path parameters identify. A write's happy path runs on what the spec's links say it makes or removes; a hand
// suite (see HandSuite) replaces or adds what the spec cannot say.
import type { CheckContext } from '../check-context.js';
import { CheckFailed } from '../model.js';
import {
  addressedParameter,
  identifiedParameters,
  linkValue,
  provenanceOf,
  requestExample,
  type SpecOperation,
  type SpecParameter,
} from '../operations.js';
import { isIdSetting } from '../targets/live.js';
import { envVariableOf } from '../targets/settings.js';
import {
  documentedStatusChecks,
  liveBasicChecks,
  operationSender,
  prismOwnBehaviour,
  targetIdOf,
  targetPath,
  unknownValue,
  type BasicCase,
  type HandSuite,
  type Inspect,
  type Send,
  type SendOptions,
} from './common.js';
import type { Check } from './types.js';
import { removalReadBackChecks } from './after-removal.js';
import { pageBoundaryChecks, pageSizeChecks } from './page-boundaries.js';
import { missingRequiredBodyCheck, outerUnknownChecks } from './derived-refusals.js';

type Operations = ReadonlyMap<string, SpecOperation>;
type Path = Record<string, string | number>;
export type SendOf = (operationId: string) => Send;

/** The DELETE an operation's 200 links to: it removes what the operation made. */
const removalLink = (operations: Operations, op: SpecOperation) =>
  op.links.find((l) => operations.get(l.operationId)?.method === 'DELETE');

/**
 * Registers, as a cleanup of the check, the removal of what `creator` made (the DELETE its links
 * lead to, filled from the request and the response); an unknown-id answer means the check removed
 * it already.
 */
export function removeAfterwards(ctx: CheckContext, creator: SpecOperation, requestPath: Path, body: unknown): boolean {
  const removal = removalLink(ctx.operations(), creator);
  if (!removal) return false;
  const path = Object.fromEntries(
    Object.entries(removal.parameters).map(([name, expr]) => [name, linkValue(expr, requestPath, body)]),
  );
  if (Object.values(path).some((v) => typeof v !== 'number' && typeof v !== 'string')) return false;
  ctx.onCleanup(`${removal.operationId} ${Object.values(path).join('/')}`, async () => {
    const removed = await operationSender(removal.operationId)(ctx, { path: path as Path });
    // What the removal answers once the thing is gone: an unknown id (404, or the spec's own status).
    const gone = addressedParameter(ctx.operation(removal.operationId))?.unknownStatus ?? 404;
    if (removed.status !== 200 && removed.status !== 204 && removed.status !== gone)
      throw new CheckFailed([
        { kind: 'setup', message: `${removal.operationId} answered ${removed.status ?? 'nothing'}`, exchange: removed },
      ]);
  });
  return true;
}

/**
 * Makes a temporary resource through `creator` and registers its removal. `idExpression` is the
 * link expression of its id (`$response.body#/form_integration/id`).
 */
export async function createTemporary(
  ctx: CheckContext,
  creator: SpecOperation,
  send: Send,
  request: SendOptions,
  idExpression: string,
): Promise<{ id: string | number; body: unknown }> {
  const exchange = await send(ctx, request);
  const parsed = ctx.json(exchange);
  const body = parsed.ok ? parsed.value : undefined;
  const id = linkValue(idExpression, {}, body);
  if (exchange.status !== 200 || (typeof id !== 'number' && typeof id !== 'string'))
    throw new CheckFailed([
      {
        kind: 'setup',
        message: `could not make a temporary resource with ${creator.operationId} (status ${exchange.status ?? 'none'})`,
        exchange,
      },
    ]);
  removeAfterwards(ctx, creator, { ...targetPath(ctx, creator), ...(request.path as Path) }, body);
  return { id, body };
}

/**
 * A temporary value for parameter `p` of `op`, made by the operation whose links lead to `op`; a
 * skip naming the setting when the target may not write or the spec links to no maker.
 */
async function temporaryFor(
  ctx: CheckContext,
  op: SpecOperation,
  p: SpecParameter,
  sendOf: SendOf,
  known: Path,
): Promise<string | number> {
  const setting = `${p.identifies}Id`;
  const provenance = provenanceOf(ctx.operations(), op, p);
  const set = isIdSetting(setting) ? `set ${envVariableOf(setting)}` : 'the target has no setting for one';
  if (!provenance) return ctx.skip(`no ${p.identifies} to address (${set})`);
  if (!ctx.target.write)
    return ctx.skip(`no ${p.identifies} to address (${set}, or run with --write to use a temporary one)`);
  const path = Object.fromEntries(
    Object.entries(provenance.fromCreatorPath).flatMap(([mine, theirs]) =>
      known[theirs] === undefined ? [] : [[mine, known[theirs]]],
    ),
  );
  const { creator, idExpression } = provenance;
  return (await createTemporary(ctx, creator, sendOf(creator.operationId), { path }, idExpression)).id;
}

/**
 * The path of a request that must reach something of the tenant: the target's ids, a temporary
 * resource where it has none (with --write), or a skip. `fresh` is always a temporary one (a write
 * never touches what the user configured); `except` is left out.
 */
async function tenantPath(
  ctx: CheckContext,
  op: SpecOperation,
  sendOf: SendOf,
  { except, fresh }: { except?: string; fresh?: string } = {},
): Promise<Path> {
  const path: Path = {};
  for (const p of identifiedParameters(op)) {
    if (p.name === except) continue;
    const id = p.name === fresh ? undefined : targetIdOf(ctx, p.identifies!);
    path[p.name] = id ?? (await temporaryFor(ctx, op, p, sendOf, path));
  }
  return path;
}

/** The basic live cases of an operation, as far as the spec says them. */
export function derivedCases(
  op: SpecOperation,
  operations: Operations,
  sendOf: SendOf,
): {
  happyPath?: BasicCase;
  noToken?: BasicCase;
  withoutAbility?: BasicCase;
  unknown?: BasicCase & { status?: number };
  inspect?: Inspect;
} {
  const addressed = addressedParameter(op);
  const unknownStatus = addressed?.unknownStatus ?? 404;
  const readOnly = op.method === 'GET';
  // A write whose 200 links to a DELETE makes something: it runs on the target's ids and is undone.
  const makes = !readOnly && removalLink(operations, op) !== undefined;
  // A write on something the spec's links can make runs on a temporary one.
  const onTemporary = !readOnly && !makes && addressed && provenanceOf(operations, op, addressed);
  const reach = async (ctx: CheckContext) => ({ path: await tenantPath(ctx, op, sendOf) });
  const reachNew = async (ctx: CheckContext) => ({
    path: await tenantPath(ctx, op, sendOf, { fresh: addressed!.name }),
  });
  const happyPath: BasicCase | undefined = readOnly
    ? { request: reach }
    : makes
      ? { writes: true, request: reach }
      : onTemporary
        ? { writes: true, request: reachNew }
        : undefined;
  return {
    ...(happyPath ? { happyPath, withoutAbility: happyPath } : {}),
    // Without a token nothing may happen: a write other than a maker addresses nothing that exists.
    noToken:
      readOnly || makes || !addressed ? {} : { request: { path: { [addressed.name]: unknownValue(addressed) } } },
    ...(addressed
      ? {
          unknown: {
            name:
              identifiedParameters(op).length > 1 || unknownStatus !== 404
                ? `unknown ${addressed.identifies}: ${unknownStatus}`
                : 'unknown id: 404',
            status: unknownStatus,
            request: async (ctx: CheckContext) => ({
              path: {
                ...(await tenantPath(ctx, op, sendOf, { except: addressed.name })),
                [addressed.name]: unknownValue(addressed),
              },
            }),
          },
        }
      : {}),
    ...(makes
      ? {
          inspect: (ctx: CheckContext, exchange, request) => {
            const parsed = ctx.json(exchange);
            if (exchange.status === 200 && parsed.ok)
              removeAfterwards(ctx, op, { ...targetPath(ctx, op), ...(request.path as Path) }, parsed.value);
          },
        }
      : {}),
  };
}

/** A derived case with the hand suite's word on it: `false` drops it, an object refines or replaces it. */
const refined = <T extends BasicCase>(derived: T | undefined, hand: BasicCase | false | undefined): T | undefined =>
  hand === false ? undefined : hand === undefined ? derived : ({ ...derived, ...hand } as T);

/** Every check of one operation: the derived ones, refined by its hand suite, then the hand suite's own. */
export function operationChecks(
  op: SpecOperation,
  operations: Operations,
  hand: HandSuite | undefined,
  sendOf: SendOf,
): Check[] {
  const send = sendOf(op.operationId);
  const derived = derivedCases(op, operations, sendOf);
  const unknown = refined(derived.unknown, hand?.unknown);
  const inspect = hand?.inspect ?? derived.inspect;
  const happyPath = refined(derived.happyPath, hand?.happyPath);
  return [
    ...documentedStatusChecks(op, send),
    ...prismOwnBehaviour(op, send),
    ...liveBasicChecks({
      op,
      send,
      ...optional('happyPath', happyPath),
      ...optional('noToken', refined(derived.noToken, hand?.noToken)),
      ...optional('withoutAbility', refined(derived.withoutAbility, hand?.withoutAbility)),
      ...(unknown ? { unknown: { name: `unknown id: ${unknown.status ?? 404}`, ...unknown } } : {}),
      ...(inspect ? { inspect } : {}),
    }),
    ...(op.public || hand?.unknown === false ? [] : outerUnknownChecks(op, send)),
    ...missingRequiredBodyCheck(op, happyPath, send, inspect),
    ...removalReadBackChecks(op, operations, happyPath, send, sendOf),
    ...pageBoundaryChecks(op, send),
    ...pageSizeChecks(op, send),
    ...(hand?.checks ?? []),
  ];
}

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);

/** One thing an operation of the spec needs by hand, beyond what the suite derives. */
export interface HandWork {
  readonly need: 'sandbox-route' | 'docs-sample' | 'ledger' | 'write-happy-path' | 'request-body' | 'sender';
  readonly says: string;
}

/**
 * What an operation still needs by hand (CONTRIBUTING's "Adding an operation"): always the
 * sandbox's behaviour, its docs samples and the ledger's entries where the service differs; and
 * in the suite only what the spec cannot say and no hand suite gives.
 */
export function handWorkFor(
  op: SpecOperation,
  operations: Operations,
  hand: HandSuite | undefined,
  bundle: Record<string, unknown>,
): HandWork[] {
  const id = op.operationId;
  const work: HandWork[] = [
    {
      need: 'sandbox-route',
      says: `a route in apps/sandbox (until then the sandbox answers 404 or 405 to ${op.method} ${op.path} and the live checks fail there)`,
    },
    { need: 'docs-sample', says: `apps/doc-check/samples/operations/${id}.ts and ${id}.sh, run against the sandbox` },
    { need: 'ledger', says: `entries in spec/drift.yaml for what the service does otherwise, once seen on a tenant` },
  ];
  if (
    op.method !== 'GET' &&
    !derivedCases(op, operations, () => operationSender(id)).happyPath &&
    // `false`: the hand suite's own checks hold its happy path.
    hand?.happyPath === undefined
  )
    work.push({
      need: 'write-happy-path',
      says: `a hand suite with the happy path and 403 of ${id}: its links neither undo what it does nor lead from an operation that makes what it addresses`,
    });
  if (hand?.send) return work;
  if (op.jsonBody && requestExample(bundle, op) === undefined)
    work.push({
      need: 'request-body',
      says: `an example of ${id}'s request body in the spec, or a hand sender with a body`,
    });
  const unfilled = op.parameters.filter(
    (p) =>
      (p.in === 'path' &&
        (p.identifies === undefined || (!isIdSetting(`${p.identifies}Id`) && !provenanceOf(operations, op, p)))) ||
      (p.in === 'query' && p.required),
  );
  // A hand happy path addresses what it acts on itself (a member it added, a submission it made).
  const addressesItself = typeof hand?.happyPath === 'object' && hand.happyPath.request !== undefined;
  if (unfilled.length > 0 && !addressesItself)
    work.push({
      need: 'sender',
      says: `a hand sender for ${id}: nothing of the target fills ${unfilled.map((p) => `${p.in} ${p.name}`).join(', ')}`,
    });
  return work;
}
