// The second opinion: the live suite's read-only requests sent again through `prism proxy --errors`.
// Prism's request/response validation (sl-violations header, or its problem+json error bodies) is
// reported separately, as information: Prism judges 3.1 schemas as draft-07, so the Ajv verdict of
// the main suite stays the authority.
import type { Exchange } from '../model.js';
import { identifiedParameters, operationsOf, takesIdOrSlug, type SpecOperation } from '../operations.js';
import { isIdSetting } from '../targets/live.js';
import { envVariableOf } from '../targets/settings.js';
import { targetIdOf, type Send } from './common.js';
import type { SendOf } from './derive.js';
import type { Check, OperationSuite } from './types.js';

/** Prism's findings about one exchange, as lines; `excerpt` cuts quoted bodies (redacting first). */
export function prismViolations(
  exchange: Exchange,
  excerpt: (text: string, chars: number) => string = (text, chars) => text.slice(0, chars),
): string[] {
  const lines: string[] = [];
  const header = exchange.responseHeaders?.['sl-violations'];
  if (header) {
    try {
      for (const v of JSON.parse(header) as Array<{ location?: string[]; message?: string; severity?: string }>)
        lines.push(`${v.severity ?? 'Error'} at ${(v.location ?? []).join('.')}: ${v.message ?? ''}`);
    } catch {
      lines.push(`sl-violations: ${header}`);
    }
  }
  const body = exchange.responseBody ?? '';
  if (body.includes('stoplight.io/prism/errors')) {
    try {
      const problem = JSON.parse(body) as {
        title?: string;
        detail?: string;
        validation?: Array<{ location?: string[]; message?: string }>;
      };
      lines.push(`Prism error (${exchange.status}): ${problem.title ?? ''} ${problem.detail ?? ''}`.trim());
      for (const v of problem.validation ?? []) lines.push(`  at ${(v.location ?? []).join('.')}: ${v.message ?? ''}`);
    } catch {
      lines.push(`Prism error (${exchange.status}): ${excerpt(body, 300)}`);
    }
  }
  return lines;
}

function proxyCheck(op: SpecOperation, send: Send): Check {
  const { operationId } = op;
  return {
    name: 'through prism proxy --errors',
    operationId,
    on: 'live',
    async run(ctx) {
      for (const p of identifiedParameters(op))
        if (targetIdOf(ctx, p.identifies!) === undefined)
          return ctx.skip(
            `no ${p.identifies} to read (the embedded sandboxes start without one; against your tenant, set ${envVariableOf(`${p.identifies}Id`)})`,
          );
      const exchange = await send(ctx);
      const lines = prismViolations(exchange, (text, chars) => ctx.excerpt(text, chars));
      if (lines.length > 0) {
        ctx.notes.push({
          label: 'violations',
          message: `Prism proxy reports ${lines.length} violation(s)`,
          failure: {
            kind: 'schema',
            operationId,
            message: 'Prism proxy violations',
            received: lines.join('; '),
            exchange,
          },
        });
      }
    },
  };
}

/**
 * Whether the proxy pass sends an operation: read-only, secured, answered in JSON, and every path
 * parameter one the target's id settings fill. An id-or-slug parameter is left out: Prism 5.14.2
 * coerces a numeric id, which then matches both branches of the `oneOf`, and refuses it (422).
 */
export function proxied(op: SpecOperation): boolean {
  const path = op.parameters.filter((p) => p.in === 'path');
  return (
    op.method === 'GET' &&
    !op.public &&
    op.successMediaTypes[0] === 'application/json' &&
    path.every((p) => p.identifies !== undefined && isIdSetting(`${p.identifies}Id`) && !takesIdOrSlug(p))
  );
}

/** One proxy check for each operation of `bundle` the pass sends, in the spec's order. */
export function proxySuitesFor(bundle: Record<string, unknown>, sendOf: SendOf): OperationSuite[] {
  return [...operationsOf(bundle).values()]
    .filter(proxied)
    .map((op) => ({ operationId: op.operationId, checks: [proxyCheck(op, sendOf(op.operationId))] }));
}
