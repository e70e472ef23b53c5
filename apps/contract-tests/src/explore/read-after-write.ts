// Stateful oracles beyond status codes, derived from the spec for every write whose answer carries
// the resource it wrote: the write's answer agrees with the read-back on every member the request
// set (read-after-write), and what the write did not change (members no request names, members
// sent back as they were) reads back as it was before (preserved fields). Members the spec marks
// `x-server-maintained` (an `updated_at`) are the server's to change.
import fc from 'fast-check';
import type { SpecOperation } from '@forms-api/spec/operations';
import { resolved } from '@forms-api/spec/operations';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import type { Check } from '../suites/types.js';
import { withTargetIds } from '../suites/common.js';
import { answersToSendBack, findSubmission, formFields, stringField } from '../suites/helpers.js';
import { requestExample } from '../operations.js';
import { isCredentialHeader, REDACTED } from '@forms-api/internal/credentials';
import { createdParameter, type Explorer } from './explorer.js';
import { safeBody } from './request-bodies.js';
import { pathParameters, request, targetIds } from './requests.js';

type Json = Record<string, any>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Where a request member is read back in a resource: a member (`status`) or a key of a map member (`data`, the answers). */
type Place = { readonly member: string; readonly key?: string };

/** How a resource schema holds what a request schema sends. */
interface Holding {
  /** The request's named members the resource has: request member -> resource member (the same name, or its `x-read-back-as`). */
  readonly named: ReadonlyMap<string, string>;
  /** The resource's map member whose values are the request's other keys (same schema), if any. */
  readonly map?: string;
}

/** The write's answer, the read that gives its resource back, and how both hold what is sent. */
export interface WriteUnderTest {
  readonly write: SpecOperation;
  /** The answer's member that holds the resource (`form_integration`), or '' for the answer itself. */
  readonly answerAt: string;
  readonly inAnswer: Holding;
  /** A GET of the resource itself, or a list whose rows hold it (found by id). */
  readonly read: SpecOperation;
  readonly readIsList: boolean;
  readonly inRead: Holding;
  /** Members of the read resource the write never names (an id, a parent, a creation time). */
  readonly unnamed: readonly string[];
  /** Members the spec marks `x-server-maintained`: never compared. */
  readonly serverMaintained: ReadonlySet<string>;
}

/** The properties and additionalProperties of a schema, its `$ref`s (and an `allOf`) followed. */
function shapeOf(bundle: Json, schema: unknown): { properties: Record<string, Json>; additional?: unknown } {
  const s = resolved(bundle, schema) as Json | undefined;
  if (!isObject(s)) return { properties: {} };
  const parts = [s, ...((s.allOf as unknown[]) ?? []).map((p) => resolved(bundle, p) as Json)];
  const properties = Object.assign({}, ...parts.map((p) => (isObject(p?.properties) ? p.properties : {})));
  const additional = parts.map((p) => p?.additionalProperties).find((a) => isObject(a));
  return { properties, ...(additional ? { additional } : {}) };
}

/** The schema of what a read gives per resource: itself, an array's items, or a page's `data` items. */
function itemSchema(bundle: Json, read: SpecOperation): { schema: unknown; list: boolean } | undefined {
  const response = resolved(bundle, bundle.paths?.[read.path]?.get?.responses?.['200']) as Json | undefined;
  const raw = response?.content?.['application/json']?.schema;
  const schema = resolved(bundle, raw) as Json | undefined;
  if (!isObject(schema)) return undefined;
  if (schema.type === 'array') return { schema: schema.items, list: true };
  const data = resolved(bundle, shapeOf(bundle, schema).properties.data) as Json | undefined;
  if (data?.type === 'array') return { schema: data.items, list: true };
  return { schema: raw, list: false };
}

const sameRef = (a: unknown, b: unknown) =>
  isObject(a) && isObject(b) && typeof a.$ref === 'string' && a.$ref.split('/').at(-1) === b.$ref?.split('/').at(-1);

function holding(bundle: Json, request: ReturnType<typeof shapeOf>, resource: unknown): Holding {
  const shape = shapeOf(bundle, resource);
  const named = new Map(
    Object.entries(request.properties)
      .map(([name, member]): [string, string] => [name, (resolved(bundle, member) as Json)?.['x-read-back-as'] ?? name])
      .filter(([, held]) => held in shape.properties),
  );
  // The request's free keys (a submission's answers) land in the resource's map of the same values.
  const map = request.additional
    ? Object.entries(shape.properties).find(([, member]) =>
        sameRef(shapeOf(bundle, member).additional, request.additional),
      )?.[0]
    : undefined;
  return { named, ...(map ? { map } : {}) };
}
const score = (h: Holding) => h.named.size + (h.map ? 1 : 0);

/** The GET at a path, when the spec has one. */
const getAt = (operations: readonly SpecOperation[], path: string) =>
  operations.find((o) => o.method === 'GET' && o.path === path && !o.public);

/**
 * The read that gives a write's resource back, from the paths: for an update, a GET of its own
 * path, else the list at its parent; for a creation, a GET of one item under its path, else the
 * list at its path, else at its parent (`/workspaces/create` adds to `/workspaces`).
 */
function readOf(operations: readonly SpecOperation[], write: SpecOperation): SpecOperation | undefined {
  const parent = write.path.replace(/\/[^/]+$/, '');
  if (write.method === 'POST') {
    const item = operations.find(
      (o) => o.method === 'GET' && !o.public && new RegExp(`^${escape(write.path)}/\\{[^/}]+\\}$`).test(o.path),
    );
    return item ?? getAt(operations, write.path) ?? getAt(operations, parent);
  }
  return getAt(operations, write.path) ?? getAt(operations, parent);
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every write of the spec whose answer carries the resource it wrote and whose resource a read gives back. */
export function writesUnderTest(bundle: Json, operations: readonly SpecOperation[]): WriteUnderTest[] {
  return operations.flatMap((write): WriteUnderTest[] => {
    if (write.method === 'GET' || write.method === 'DELETE' || write.public || !write.jsonBody) return [];
    const read = readOf(operations, write);
    const item = read && itemSchema(bundle, read);
    if (!read || !item) return [];
    const request = shapeOf(bundle, write.jsonBody.schema);
    const inRead = holding(bundle, request, item.schema);
    const response = resolved(bundle, bundle.paths?.[write.path]?.[write.method.toLowerCase()]?.responses?.['200']) as
      Json | undefined;
    const answer = response?.content?.['application/json']?.schema;
    if (!answer || score(inRead) === 0) return [];
    // The answer's member that holds the most of what is sent (the answer itself when it is the resource).
    const candidates: Array<[string, Holding]> = [
      ['', holding(bundle, request, answer)],
      ...Object.entries(shapeOf(bundle, answer).properties).map(([name, member]): [string, Holding] => [
        name,
        holding(bundle, request, member),
      ]),
    ];
    const [answerAt, inAnswer] = candidates.reduce((best, c) => (score(c[1]) > score(best[1]) ? c : best));
    if (score(inAnswer) === 0) return [];
    // The read gives back the very resource: the same schema, or the read an update's links lead to
    // (a submission's update answers it in a shape of its own). An invitation is no member.
    const inTheAnswer = answerAt === '' ? answer : shapeOf(bundle, answer).properties[answerAt];
    const linked = write.method !== 'POST' && write.links.some((l) => l.operationId === read.operationId);
    if (!sameRef(inTheAnswer, item.schema) && !linked) return [];
    const readShape = shapeOf(bundle, item.schema);
    const serverMaintained = new Set(
      Object.entries(readShape.properties)
        .filter(([, member]) => (member as Json)['x-server-maintained'] === true)
        .map(([name]) => name),
    );
    const written = new Set(inRead.named.values());
    const unnamed = Object.keys(readShape.properties).filter(
      (name) =>
        !(name in request.properties) && !written.has(name) && name !== inRead.map && !serverMaintained.has(name),
    );
    return [{ write, answerAt, inAnswer, read, readIsList: item.list, inRead, unnamed, serverMaintained }];
  });
}

/** A value as compared: keys in any order (a jsonb column re-sorts them), a signed file URL without its signature (each read signs anew). */
function canonical(value: unknown): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [
          k,
          k === 'file_url' && typeof v[k] === 'string' ? (v[k] as string).split('?', 1)[0] : strip(v[k]),
        ]),
    );
  };
  return JSON.stringify(strip(value)) ?? 'absent';
}
/** A value as shown in a report: a member that holds a credential (a webhook's signing secret) by the toolkit's one rule, masked. */
const shown = (value: unknown) => {
  const text =
    value === undefined
      ? 'absent'
      : (JSON.stringify(value, (k, v) => (typeof v === 'string' && isCredentialHeader(k, v) ? REDACTED : v)) ??
        String(value));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};
/** The pointer, below `base`, of the first place two values differ ('' when they differ as a whole). */
function whereTheyDiffer(a: unknown, b: unknown): string {
  if (!isObject(a) || !isObject(b)) return '';
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (canonical(a[key]) !== canonical(b[key]))
      return `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}${whereTheyDiffer(a[key], b[key])}`;
  return '';
}
/** The place where a member differs, deep inside it when it is an object. */
const differing = (place: Place, a: unknown, b: unknown) => {
  const inside = whereTheyDiffer(a, b);
  return inside ? `${pointer(place)} (at ${pointer(place)}${inside})` : pointer(place);
};
/** Where two texts part (a value cut short, trimmed or re-encoded), which a shortened display would hide. */
const parting = (a: unknown, b: unknown): string => {
  if (typeof a !== 'string' || typeof b !== 'string') return '';
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return ` (${a.length} characters against ${b.length}, alike for the first ${i})`;
};
const at = (resource: unknown, place: Place): unknown => {
  const member = isObject(resource) ? resource[place.member] : undefined;
  return place.key === undefined ? member : isObject(member) ? member[place.key] : undefined;
};
const pointer = (place: Place) =>
  `/${[place.member, ...(place.key === undefined ? [] : [place.key])].map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** The places of the resource a request body sets, with the value it sent. */
function sentPlaces(body: unknown, h: Holding, request: ReturnType<typeof shapeOf>): Array<[Place, unknown]> {
  if (!isObject(body)) return [];
  return Object.entries(body).flatMap(([k, v]): Array<[Place, unknown]> => {
    if (k in request.properties) return h.named.has(k) ? [[{ member: h.named.get(k)! }, v]] : [];
    return h.map ? [[{ member: h.map, key: k }, v]] : [];
  });
}

/**
 * The write's answer against the read-back, and (for an update, with the resource read before)
 * what it did not change against what it was.
 */
function judgeWrite(
  ctx: CheckContext,
  bundle: Json,
  w: WriteUnderTest,
  r: {
    body: unknown;
    answered: unknown;
    readBack: unknown;
    readExchange: Exchange;
    before?: unknown;
  },
): void {
  const request = shapeOf(bundle, w.write.jsonBody!.schema);
  const answered = w.answerAt === '' ? r.answered : isObject(r.answered) ? r.answered[w.answerAt] : undefined;
  const { operationId } = w.write;
  const sent = sentPlaces(r.body, w.inRead, request);
  const inAnswer = new Map(sentPlaces(r.body, w.inAnswer, request).map(([p]) => [pointer(p), p]));
  for (const [place] of sent) {
    if (w.serverMaintained.has(place.member)) continue;
    // A key of the map: the answer holds it in its own map member, under the same key.
    const answerPlace =
      place.key === undefined
        ? inAnswer.get(pointer(place))
        : w.inAnswer.map
          ? { member: w.inAnswer.map, key: place.key }
          : undefined;
    if (!answerPlace) continue;
    const a = at(answered, answerPlace);
    const b = at(r.readBack, place);
    if (canonical(a) !== canonical(b))
      ctx.observe(
        'write-answer-differs-from-read-back',
        operationId,
        `${operationId} answered ${differing(place, a, b)} as ${shown(a)}; it reads back (${w.read.operationId}) as ${shown(b)}${parting(a, b)}`,
        {
          expected: shown(a),
          received: shown(b),
          exchange: r.readExchange,
          symptom: { at: [pointer(place)] },
        },
      );
  }
  if (r.before === undefined) return;
  // What the write did not change: members it never names, and what it sent back as it was.
  const kept: Place[] = w.unnamed.map((member) => ({ member }));
  for (const [place, value] of sent)
    if (!w.serverMaintained.has(place.member) && canonical(value) === canonical(at(r.before, place))) kept.push(place);
  for (const place of kept) {
    const was = at(r.before, place);
    const is = at(r.readBack, place);
    if (canonical(was) !== canonical(is))
      ctx.observe(
        'write-changed-what-it-kept',
        operationId,
        `${differing(place, was, is)} was ${shown(was)} and reads back as ${shown(is)}${parting(was, is)}, though ${operationId} did not change it`,
        { expected: shown(was), received: shown(is), exchange: r.readExchange, symptom: { at: [pointer(place)] } },
      );
  }
}

/** Path values of `op` by parameter name (the write's own), else by what each identifies. */
function pathFor(op: SpecOperation, byName: Record<string, unknown>, byKind: Readonly<Record<string, unknown>>) {
  const path: Record<string, unknown> = {};
  for (const p of pathParameters(op)) {
    const value = byName[p.name] ?? (p.identifies === undefined ? undefined : byKind[p.identifies]);
    if (value === undefined) return undefined;
    path[p.name] = value;
  }
  return path;
}

/**
 * The resource as the read gives it: the item GET's answer (the resource's id as its last path
 * parameter), or the row with its id in the list.
 */
async function readBack(
  explorer: Explorer,
  ctx: CheckContext,
  w: WriteUnderTest,
  writePath: Record<string, unknown>,
  id: unknown,
): Promise<{ resource: unknown; exchange: Exchange | undefined }> {
  const last = pathParameters(w.read).at(-1);
  const byName = { ...writePath, ...(w.readIsList || !last ? {} : { [last.name]: id }) };
  const path = pathFor(w.read, byName, targetIds(ctx.target));
  if (!path) return { resource: undefined, exchange: undefined };
  if (!w.readIsList) {
    const exchange = await request(ctx, w.read, { path });
    const body = ctx.expectResponse(exchange, { operationId: w.read.operationId, status: 200 });
    return { resource: exchange.status === 200 ? body : undefined, exchange };
  }
  const { rows, exchange } = await explorer.rowsOf(ctx, w.read, path, id);
  return { resource: rows?.find((row) => row?.id === id), exchange };
}

/** The members of a resource a request of the write names, as read: the resource put back unchanged. */
function projection(bundle: Json, w: WriteUnderTest, resource: unknown): Json | undefined {
  if (!isObject(resource)) return undefined;
  const request = shapeOf(bundle, w.write.jsonBody!.schema);
  return Object.fromEntries(
    Object.keys(request.properties)
      .filter((name) => w.inRead.named.has(name) && resource[w.inRead.named.get(name)!] !== undefined)
      .map((name) => [name, resource[w.inRead.named.get(name)!]]),
  );
}

/** Sends a write and judges it against the read-back; the resource as read, or undefined when there is nothing to go on. */
async function writeAndReadBack(
  explorer: Explorer,
  scratch: CheckContext,
  w: WriteUnderTest,
  r: { path: Record<string, unknown>; body: unknown; id?: unknown; before?: unknown },
): Promise<{ resource: unknown; id: unknown } | undefined> {
  const { write } = w;
  const exchange = await request(scratch, write, { path: r.path, body: r.body });
  const answered = scratch.expectResponse(exchange, { operationId: write.operationId, status: 200 });
  if (exchange.status !== 200 || answered === undefined) return undefined;
  if (write.method === 'POST') explorer.deleteCreated(scratch, write, r.path, exchange);
  const resource = w.answerAt === '' ? answered : (answered as Json | null)?.[w.answerAt];
  const id = r.id ?? (resource as Json | undefined)?.id;
  const read = await readBack(explorer, scratch, w, r.path, id);
  if (!read.exchange) return undefined;
  if (read.resource === undefined) {
    scratch.observe(
      'written-resource-not-read-back',
      write.operationId,
      `${String(id)}, written by ${write.operationId}, is not found by ${w.read.operationId}`,
      { exchange: read.exchange },
    );
    return undefined;
  }
  judgeWrite(scratch, explorer.spec.bundle as Json, w, {
    body: r.body,
    answered,
    readBack: read.resource,
    readExchange: read.exchange,
    ...(r.before !== undefined ? { before: r.before } : {}),
  });
  return { resource: read.resource, id };
}

/**
 * Each check's requests, off the top of the target's budget rather than a share of it: two cases
 * (the first whatever the seed) and as much again to shrink a finding. These checks find what
 * they find with their first cases; a share would shrink every other check's with each write the
 * spec adds.
 */
const shareOf = (perCase: number) => 4 * perCase;
const NAME = "explore: a write's answer reads back, and what it did not change is kept";
/** Longer than a string column of 191 or 255 characters holds; a text answer is checked only as a string. */
const LONG_TEXT = 'A long answer that a narrow column would cut short. '.repeat(6).trim();

/**
 * The checks, one per thing a write makes or changes: each creation of a sequence of the spec
 * (then the update its links lead to, on what it made, sending back what it read with one member
 * changed), and each other update of a thing the target names (the submission under test, sent
 * back whole with one text answer changed, then restored).
 */
export function readAfterWriteChecks(explorer: Explorer): Array<Check & { readonly fixedShare: number }> {
  const { spec, operations, operationOf, sequences, generatedBody, explore, restoreAfterwards } = explorer;
  const bundle = spec.bundle as Json;
  const units = writesUnderTest(bundle, operations);
  const unitOf = (op: SpecOperation | undefined) => units.find((u) => u.write === op);
  const byId = (id: string) => operations.find((o) => o.operationId === id);
  const checks: Array<Check & { readonly fixedShare: number }> = [];
  const linkedUpdates = new Set<SpecOperation>();

  for (const { create, deleteLink } of sequences) {
    // The kind of thing it makes: what its delete link's created id identifies.
    const kind = pathParameters(operationOf(deleteLink.operationId)).find(
      (p) => p.name === createdParameter(deleteLink),
    )?.identifies;
    const created = unitOf(create);
    if (!created) continue;
    const link = create.links.find((l) => {
      const op = byId(l.operationId);
      return (op?.method === 'PUT' || op?.method === 'PATCH') && unitOf(op);
    });
    const updated = link ? unitOf(byId(link.operationId)) : undefined;
    if (updated) linkedUpdates.add(updated.write);
    // Which member the update changes: none (what was read, put back), one, or all (a whole new body).
    const members = updated ? ['', ...updated.inRead.named.keys(), '*'] : ['*'];
    const cases = fc.record({
      made: generatedBody(create),
      change: updated ? generatedBody(updated.write) : fc.constant(undefined),
      member: fc.constantFrom(...members),
    });
    const example = requestExample(bundle, create);
    // Requests per case: the creation, its read-back, the update, its read-back, the deletion.
    const perCase = updated ? 5 : 3;
    checks.push({
      name: NAME,
      operationId: create.operationId,
      on: 'live',
      writes: true,
      // Making and changing a workspace changes the user's workspaces.
      ...(kind === 'workspace' ? { destructive: true } : {}),
      fixedShare: shareOf(perCase),
      run: async (ctx) => {
        const ids = targetIds(ctx.target);
        const createPath = pathFor(create, {}, ids);
        if (!createPath)
          return ctx.skip(
            `needs the target's ${pathParameters(create)
              .map((p) => p.identifies)
              .join(', ')} id`,
          );
        await explore(
          ctx,
          `${create.operationId} read after write`,
          cases,
          async (scratch, { made, change, member }) => {
            const body = withTargetIds(scratch, create, made);
            const first = await writeAndReadBack(explorer, scratch, created, { path: createPath, body });
            if (!first || !updated || !link) return;
            // What was read, put back with one member changed (or a whole new body).
            const base = projection(bundle, updated, first.resource);
            // Over a whole generated body (for what the read does not show), what was read, then the change.
            const changed =
              member === '*' || !base || !isObject(change)
                ? change
                : { ...change, ...base, ...(member !== '' && member in change ? { [member]: change[member] } : {}) };
            const sent = withTargetIds(scratch, updated.write, safeBody(updated.write, changed));
            const valid = spec.validator.validateSchema(
              `${updated.write.operationId} body`,
              updated.write.jsonBody!.schema,
              sent,
            ).valid;
            const path = Object.fromEntries(
              Object.entries(link.parameters).map(([p, e]) => [
                p,
                e.startsWith('$request.path.') ? createPath[e.slice('$request.path.'.length)] : first.id,
              ]),
            );
            await writeAndReadBack(explorer, scratch, updated, {
              path,
              body: valid ? sent : withTargetIds(scratch, updated.write, change),
              id: first.id,
              before: first.resource,
            });
          },
          perCase,
          ({ member }) =>
            `${create.operationId}${updated ? `, then ${updated.write.operationId} ${member === '*' ? 'with a whole new body' : member === '' ? 'sending back what it read' : `sending back what it read with a new ${member}`}` : ''}, each read back`,
          // The spec's example first, whatever the seed, then sent back unchanged: every member it shows must survive.
          example === undefined
            ? []
            : [
                {
                  made: safeBody(create, example),
                  change: updated ? safeBody(updated.write, requestExample(bundle, updated.write)) : undefined,
                  member: members[0]!,
                },
              ],
          false,
          shareOf(perCase),
        );
      },
    });
  }

  // The other updates: of a thing the target names and no sequence makes (the submission under test).
  for (const updated of units.filter(
    (u) =>
      (u.write.method === 'PUT' || u.write.method === 'PATCH') &&
      !linkedUpdates.has(u.write) &&
      pathParameters(u.write).at(-1)?.identifies === 'submission',
  )) {
    const { write } = updated;
    checks.push({
      name: NAME,
      operationId: write.operationId,
      on: 'live',
      writes: true,
      fixedShare: shareOf(3),
      run: async (ctx) => {
        const submissionId = ctx.target.ids.submissionId;
        if (submissionId === undefined)
          return ctx.skip('set FORMS_API_SUBMISSION_ID (a submission the suite may update)');
        const original = await findSubmission(ctx, submissionId);
        if (!original) return ctx.skip(`submission ${submissionId} was not found in form ${ctx.target.ids.formId}`);
        const fields = await formFields(ctx);
        const field = stringField(original, fields);
        if (!field) return ctx.skip(`submission ${submissionId} has no text answer to change`);
        const path = pathFor(write, {}, { ...targetIds(ctx.target), submission: original.id });
        if (!path) return ctx.skip("needs the target's form id");
        // Every answer sent back (a form with required fields takes no less), one of them changed.
        const base = answersToSendBack(original, fields);
        const text = fc
          .string({ minLength: 1, maxLength: 300, unit: 'grapheme' })
          .filter((v) => v.trim() === v && v.length > 0);
        await explore(
          ctx,
          `${write.operationId} read after write`,
          text,
          async (scratch, value) => {
            restoreAfterwards(scratch, write, path, base);
            await writeAndReadBack(explorer, scratch, updated, {
              path,
              body: { ...base, [field]: value },
              id: original.id,
              before: original,
            });
          },
          // The update, its read-back, the restoring update.
          3,
          (value) => `${write.operationId} sending every answer back, text answer ${field} set to ${shown(value)}`,
          // A long text first, whatever the seed: what a narrow column would cut.
          [LONG_TEXT],
          false,
          shareOf(3),
        );
      },
    });
  }
  return checks;
}
