// What the spec's links and sequences promise of the resources they make: a creation can be
// followed through its links, deleted, and is then gone; a resource just made lists no children
// yet; an updated submission reads back as updated.
import fc from 'fast-check';
import type { SpecLink } from '@forms-api/spec/operations';
import { withTargetIds } from '../suites/common.js';
import { answersToSendBack, fileAnswersOf, jsonType, META_KEYS } from '../suites/helpers.js';
import { createdParameter, type Explorer } from './explorer.js';
import { bodySchemaName, REQUEST_BODIES, setUp } from './request-bodies.js';
import { isJson, linkParameters, missingIds, pathOf, pathParameters, request, targetIds } from './requests.js';
import { asCheck, type ExploreCheck } from './search.js';

/**
 * The stateful sequence the spec's links describe: create, follow each link, delete (the link to a
 * DELETE), then each link again (404: use after delete).
 */
export function linkSequenceChecks(explorer: Explorer): ExploreCheck[] {
  const { operationOf, sequences, collectionOf, addressesTheMade, goneStatus, generatedBody, rowsOf, explore } =
    explorer;
  const checks: ExploreCheck[] = [];
  for (const { create, deleteLink } of sequences) {
    const list = collectionOf(create);
    const cases = fc.record({
      created: generatedBody(create),
      sent: fc.tuple(...create.links.map((link) => generatedBody(operationOf(link.operationId)))),
    });
    checks.push({
      name: 'explore: create, follow its links, delete it, then each link answers 404',
      operationId: asCheck(create),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const ids = targetIds(ctx.target);
        const requestPath = pathOf(create, ids);
        if (!requestPath) return ctx.skip(`needs ${missingIds(create, ids)}`);
        await explore(
          ctx,
          `${create.operationId} links`,
          cases,
          async (scratch, { created, sent }) => {
            const exchange = await request(scratch, create, {
              path: requestPath,
              body: withTargetIds(scratch, create, created),
            });
            const body = scratch.expectResponse(exchange, { operationId: create.operationId, status: 200 });
            if (exchange.status !== 200 || body === undefined) return;
            const pathOfLink = (link: SpecLink) => linkParameters(link, requestPath, body);
            // A body without what the links need was reported by its schema check.
            if (Object.values(pathOfLink(deleteLink)).some((v) => v === undefined)) return;
            const follow = (link: SpecLink) =>
              request(scratch, operationOf(link.operationId), {
                path: pathOfLink(link),
                body: withTargetIds(scratch, operationOf(link.operationId), sent[create.links.indexOf(link)]),
              });
            const id = pathOfLink(deleteLink)[createdParameter(deleteLink)!];
            let deleted = false;
            scratch.onCleanup(`delete ${String(id)}, created by ${create.operationId}`, async () => {
              if (!deleted) await follow(deleteLink);
            });
            for (const link of create.links.filter((l) => l !== deleteLink))
              scratch.expectResponse(await follow(link), { operationId: link.operationId, status: 200 });
            // What was created (and updated) is in its list.
            if (list) {
              const { rows, exchange: listed } = await rowsOf(scratch, list, requestPath, id);
              if (rows && !rows.some((row) => row?.id === id))
                scratch.observe(
                  'created-integration-not-listed',
                  list.operationId,
                  `${String(id)}, created by ${create.operationId}, is not in its list`,
                  { exchange: listed },
                );
            }
            scratch.expectResponse(await follow(deleteLink), { operationId: deleteLink.operationId, status: 200 });
            deleted = true;
            // The links that address what was made (their ids come from the answer) must find it
            // gone, answered as an unknown id is; a link to the parent's list still answers 200.
            for (const link of create.links.filter(addressesTheMade)) {
              const after = await follow(link);
              if (after.status === 200)
                scratch.observe(
                  'deleted-integration-still-answers',
                  link.operationId,
                  `${String(id)} answers 200 after it was deleted`,
                  { expected: String(goneStatus(link)), received: '200', exchange: after },
                );
              else scratch.expectResponse(after, { operationId: link.operationId, status: goneStatus(link) });
            }
          },
          2 * create.links.length + 2,
          () => `${create.operationId}, then ${create.links.map((l) => l.operationId).join(', ')}, then each again`,
        );
      },
    });
  }
  return checks;
}

/**
 * Fresh resources have no children yet. The parent -> child relation comes from the paths: a
 * list is a child of what a sequence creates when its path is the created thing's own path (the
 * delete link's) and more, its last parameter naming the created kind (a form's submissions and
 * integrations, an integration's events). Only a thing made inside a parent the target names (a
 * path parameter, or a body member that `x-identifies` one) is checked: a top-level resource (a
 * workspace) starts with its creator among its members. One case per list, every run.
 */
export function freshResourceChecks(explorer: Explorer): ExploreCheck[] {
  const { operationOf, secured, sequences, creatorOf, createTemporary, exploreCases } = explorer;
  const checks: ExploreCheck[] = [];
  const shapeOf = (path: string) => path.replace(/\{[^/}]+\}/g, '{}');
  const freshChildren = sequences.flatMap(({ create, deleteLink }) => {
    const made = pathParameters(operationOf(deleteLink.operationId)).find(
      (p) => p.name === createdParameter(deleteLink),
    );
    const madeInside = pathParameters(create).length > 0 || (create.jsonBody?.identifying.length ?? 0) > 0;
    if (!made?.identifies || !madeInside) return [];
    const itemPath = `${shapeOf(operationOf(deleteLink.operationId).path)}/`;
    return secured
      .filter(
        (op) =>
          op.method === 'GET' &&
          isJson(op.successMediaTypes[0]) &&
          shapeOf(op.path).startsWith(itemPath) &&
          pathParameters(op).at(-1)?.identifies === made.identifies,
      )
      .map((list) => ({ list, kind: made.identifies! }));
  });
  for (const { list, kind } of freshChildren)
    checks.push({
      name: 'explore: a resource the run just made lists no children yet',
      operationId: asCheck(list),
      on: 'live',
      writes: true,
      exhaustive: true,
      run: async (ctx) =>
        exploreCases(
          ctx,
          `fresh ${kind}`,
          [list],
          async (scratch) => {
            const { id } = await createTemporary(scratch, kind);
            const path = pathOf(list, { ...targetIds(ctx.target), [kind]: id });
            if (!path) return scratch.skip(`needs ${missingIds(list, targetIds(ctx.target))}`);
            const exchange = await request(scratch, list, { path });
            const body = scratch.expectResponse(exchange, { operationId: list.operationId, status: 200 }) as any;
            if (exchange.status !== 200 || body === undefined) return;
            const rows: unknown[] | undefined = Array.isArray(body)
              ? body
              : Array.isArray(body?.data)
                ? body.data
                : undefined;
            const total = body?.meta?.total;
            if ((rows?.length ?? 0) === 0 && (total === undefined || total === 0)) return;
            const ids = (rows ?? []).map((r) => (r as { id?: unknown })?.id ?? '(no id)');
            scratch.observe(
              'fresh-resource-has-children',
              list.operationId,
              `${kind} ${String(id)}, just made by ${creatorOf(kind)!.create.operationId}, lists ${rows?.length ?? 0} row(s)${ids.length > 0 ? ` (${ids.slice(0, 5).map(String).join(', ')})` : ''}${total === undefined ? '' : ` and meta.total ${String(total)}`}`,
              { expected: 'no rows, meta.total 0', received: `${rows?.length ?? 0} row(s)`, exchange },
            );
          },
          2,
          () => `${creatorOf(kind)!.create.operationId}, then ${list.operationId} of what it made`,
          [],
          true,
        ),
    });
  return checks;
}

/**
 * An update reads back as updated, through the spec's links of the update (to its list). The body
 * must fit the tenant's form (REQUEST_BODIES), hence a submission's update only.
 */
export function updatedSubmissionChecks(explorer: Explorer): ExploreCheck[] {
  const { arbitraries, operationOf, writes, sequences, childKind, rowsOf, restoreAfterwards, explore } = explorer;
  const checks: ExploreCheck[] = [];
  for (const op of writes.filter(
    (w) =>
      (w.method === 'PUT' || w.method === 'PATCH') &&
      w.links.length > 0 &&
      !sequences.some((s) => s.create === w) &&
      childKind(w) === 'submission',
  ))
    checks.push({
      name: 'explore: an updated submission reads back as updated',
      operationId: asCheck(op),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const { original, fields, changedField: field } = setup;
        if (setup.submissionId === undefined)
          return ctx.skip('set FORMS_API_SUBMISSION_ID (a submission the suite may update)');
        if (!original)
          return ctx.skip(`submission ${setup.submissionId} was not found in form ${ctx.target.ids.formId}`);
        if (!field) return ctx.skip(`submission ${setup.submissionId} has no text answer to change`);
        const requestPath = pathOf(op, { ...targetIds(ctx.target), submission: original.id })!;
        restoreAfterwards(ctx, op, requestPath, REQUEST_BODIES[bodySchemaName(op) ?? '']?.base(setup));
        const omitsRequired = fields.some((f) => (f as { required?: boolean }).required && f.id !== field);
        // A text answer the service stores as sent (no surrounding spaces, which a framework may trim).
        const text = (
          arbitraries.valid({ type: 'string', minLength: 1, maxLength: 40 }) as fc.Arbitrary<string>
        ).filter((v) => v.trim() === v && v.length > 0);
        await explore(
          ctx,
          'updated submission reads back',
          // Only the change would drop file answers for good (see keepsItsFiles): never on such a submission.
          fc.record({
            value: text,
            onlyTheChange: fileAnswersOf(original, fields).length > 0 ? fc.constant(false) : fc.boolean(),
          }),
          async (scratch, { value, onlyTheChange }) => {
            const body = onlyTheChange
              ? { [field]: value }
              : { ...answersToSendBack(original, fields), [field]: value };
            const traits = onlyTheChange && omitsRequired ? ['body-omits-required-field'] : [];
            const exchange = await request(scratch, op, { path: requestPath, body });
            const updated = scratch.expectResponse(exchange, { operationId: op.operationId, status: 200, traits });
            if (exchange.status !== 200) return;
            for (const link of op.links) {
              const { rows, exchange: listed } = await rowsOf(
                scratch,
                operationOf(link.operationId),
                linkParameters(link, requestPath, updated),
                original.id,
              );
              const found = rows?.find((s) => s.id === original.id) as { data: Record<string, unknown> } | undefined;
              if (!found) {
                scratch.observe(
                  'updated-submission-not-read-back',
                  op.operationId,
                  `submission ${original.id} is not in its form's list after the update`,
                  { exchange: listed },
                );
                continue;
              }
              if (JSON.stringify(found.data[field]) !== JSON.stringify(value))
                scratch.observe(
                  'updated-submission-not-read-back',
                  op.operationId,
                  `answer ${field} reads back as ${JSON.stringify(found.data[field])}, not as updated`,
                  { expected: JSON.stringify(value), received: JSON.stringify(found.data[field]), exchange: listed },
                );
              // Answers not sent keep their values (the contract: only the fields to change are sent).
              if (onlyTheChange) {
                const changed = Object.keys(original.data).filter(
                  (key) =>
                    key !== field &&
                    !META_KEYS.has(key) &&
                    JSON.stringify(found.data[key]) !== JSON.stringify(original.data[key]),
                );
                if (changed.length > 0)
                  scratch.observe(
                    'unsent-answers-changed',
                    op.operationId,
                    `answers not sent changed on update: ${changed.join(', ')}`,
                    {
                      exchange: listed,
                      symptom: { at: changed, received: changed.map((key) => jsonType(found.data[key])) },
                    },
                  );
              }
            }
          },
          3,
          ({ value, onlyTheChange }) =>
            `${onlyTheChange ? 'only the changed answer' : 'every answer'}, a text answer set to ${JSON.stringify(value)}`,
          // Every answer sent first, whatever the seed: on a form with required fields only that one can be stored.
          [{ value: 'read back as updated', onlyTheChange: false }],
        );
      },
    });
  return checks;
}
