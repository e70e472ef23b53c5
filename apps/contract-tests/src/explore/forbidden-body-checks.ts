// Request bodies the schemas forbid, on every write whose body has a valid base to start from:
// each is refused with a 4xx and changes nothing (whatever a tenant wrongly accepts is undone).
import type { Explorer } from './explorer.js';
import { bodySchemaName, forbiddenBodies, REQUEST_BODIES, setUp } from './request-bodies.js';
import { pathOf, request } from './requests.js';
import { asCheck, type ExploreCheck } from './search.js';

/**
 * Request bodies the schemas forbid, on every write whose body has a base: each must be refused with a 4xx, and change nothing.
 */
export function forbiddenBodyChecks(explorer: Explorer): ExploreCheck[] {
  const { spec, arbitraries, writes, writeIds, exploreCases, undo } = explorer;
  const checks: ExploreCheck[] = [];
  const bodyWrites = writes.filter((op) => REQUEST_BODIES[bodySchemaName(op) ?? '']);
  if (bodyWrites.length > 0)
    checks.push({
      name: 'explore: request bodies the schema forbids are refused',
      operationId: asCheck(bodyWrites[0]!),
      on: 'live',
      writes: true,
      run: async (ctx) => {
        const setup = await setUp(ctx);
        const ids = await writeIds(ctx, bodyWrites, setup);
        const cases = bodyWrites.flatMap((op) => {
          const name = bodySchemaName(op)!;
          const base = REQUEST_BODIES[name]!.base(setup);
          const path = pathOf(op, ids);
          if (!base || !path) return [];
          return forbiddenBodies(spec, arbitraries, name, base).map((c) => ({ ...c, op, path, base, name }));
        });
        if (cases.length === 0) return ctx.skip('no write the target can address (set FORMS_API_SUBMISSION_ID)');
        // A number sent as text to each request schema, every run: the class a lenient reader lets through.
        const examples = [...new Set(cases.map((c) => c.name))].flatMap((name) =>
          cases.filter((c) => c.name === name && c.label.includes('number as text')).slice(0, 1),
        );
        await exploreCases(
          ctx,
          'forbidden request bodies',
          cases,
          async (scratch, c) => {
            const { op } = c;
            const exchange = await request(scratch, op, { path: c.path, body: c.body });
            const ok = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
            // Whatever the service accepted is undone: an update put back, a creation deleted.
            if (ok) undo(scratch, op, c.path, c.base, exchange);
            // A 500 is documented only for a body the request schema names as failing the service (x-server-error-when).
            if (exchange.status === 500 && spec.validator.failsTheService(op.operationId, c.body)) {
              scratch.expectResponse(exchange, { operationId: op.operationId, status: 500 });
              return;
            }
            const traits = [
              'body-invalid',
              ...(c.label.includes('number as text') ? ['body-holds-number-as-text'] : []),
            ];
            if (ok)
              scratch.observe(
                'forbidden-body-accepted',
                op.operationId,
                `a body the schema forbids (${c.label}) was accepted with ${exchange.status}`,
                {
                  expected: '422',
                  received: String(exchange.status),
                  exchange,
                  traits,
                  symptom: { status: exchange.status, at: [c.at] },
                },
              );
            else scratch.expectResponse(exchange, { operationId: op.operationId, status: 422, traits });
          },
          1,
          (c) => `${c.op.operationId} ${c.label}: ${truncate(JSON.stringify(c.body) ?? String(c.body), 200)}`,
          examples,
        );
      },
    });
  return checks;
}

const truncate = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);
