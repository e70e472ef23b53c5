// Two more refusals every operation gets from the spec: an unknown id at each outer level of its
// path (the workspace of an invitation, the form of a submission) answers as the spec says an
// unknown value is, and a write's body without the properties its schema requires answers 422
// (a public operation is addressed by a slug or a signature, and is left to its hand suite).
// Both change nothing on a tenant that behaves; the second still waits for --write (it borrows the
// happy path's request, which may make a temporary resource).
import { resolved } from '@forms-api/spec/operations';
import type { CheckContext } from '../check-context.js';
import { addressedParameter, identifiedParameters, requiredProperties, type SpecOperation } from '../operations.js';
import { deliberatelyInvalid, targetPath, unknownValue, type BasicCase, type Inspect, type Send } from './common.js';
import type { Check } from './types.js';

/** `unknown <what>: <status>` for each identified path parameter before the addressed one. */
export function outerUnknownChecks(op: SpecOperation, send: Send): Check[] {
  const addressed = addressedParameter(op);
  return identifiedParameters(op)
    .filter((p) => p !== addressed && op.statuses.includes(p.unknownStatus ?? 404))
    .map((p) => ({
      name: `unknown ${p.identifies}: ${p.unknownStatus ?? 404}`,
      operationId: op.operationId,
      on: 'live' as const,
      async run(ctx: CheckContext) {
        // What comes after it may be anything: the outer level is resolved first.
        const path = { ...targetPath(ctx, op), [p.name]: unknownValue(p) };
        ctx.expectResponse(await send(ctx, { path }), { operationId: op.operationId, status: p.unknownStatus ?? 404 });
      },
    }));
}

/** `a body without its required properties: 422`, on the happy path's request, for a secured write. */
export function missingRequiredBodyCheck(
  op: SpecOperation,
  happyPath: BasicCase | undefined,
  send: Send,
  inspect: Inspect | undefined,
): Check[] {
  if (!happyPath || op.public || !op.jsonBody || !op.statuses.includes(422)) return [];
  return [
    {
      name: 'a body without its required properties: 422',
      operationId: op.operationId,
      on: 'live',
      writes: true,
      ...(happyPath.destructive ? { destructive: true } : {}),
      async run(ctx) {
        const schema = resolved(ctx.spec.bundle, op.jsonBody!.schema) as Record<string, unknown>;
        if (requiredProperties(ctx.spec.bundle, schema).length === 0) return ctx.skip('its body requires no property');
        if (schema['x-server-error-when'] !== undefined)
          return ctx.skip('the spec documents a 500 for bodies the service cannot handle (x-server-error-when)');
        const request =
          typeof happyPath.request === 'function' ? await happyPath.request(ctx) : (happyPath.request ?? {});
        const options = { ...request, body: deliberatelyInvalid({}) };
        const exchange = await send(ctx, options);
        inspect?.(ctx, exchange, options);
        ctx.expectResponse(exchange, { operationId: op.operationId, status: 422 });
      },
    },
  ];
}
