// The second opinion: the live suite's read-only requests sent again through `prism proxy --errors`.
// Prism's request/response validation (sl-violations header, or its problem+json error bodies) is
// reported separately, as information: Prism judges 3.1 schemas as draft-07, so the Ajv verdict of
// the main suite stays the authority.
import type { OperationId } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import { envVariableOf } from '../targets/settings.js';
import { send as listWorkspaceForms } from './list-workspace-forms.js';
import { send as listFormSubmissions } from './list-form-submissions.js';
import { send as listFormIntegrations } from './list-form-integrations.js';
import { send as listIntegrationEvents } from './list-integration-events.js';
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

function proxyCheck(operationId: OperationId, send: (ctx: CheckContext) => Promise<Exchange>): Check {
  return {
    name: 'through prism proxy --errors',
    operationId,
    on: 'live',
    async run(ctx) {
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

/** getForm is left out: Prism 5.14.2 refuses numeric ids for the id-or-slug parameter (see get-form.ts). */
export const proxySuites: OperationSuite[] = [
  { operationId: 'listWorkspaceForms', checks: [proxyCheck('listWorkspaceForms', (ctx) => listWorkspaceForms(ctx))] },
  {
    operationId: 'listFormSubmissions',
    checks: [proxyCheck('listFormSubmissions', (ctx) => listFormSubmissions(ctx))],
  },
  {
    operationId: 'listFormIntegrations',
    checks: [proxyCheck('listFormIntegrations', (ctx) => listFormIntegrations(ctx))],
  },
  {
    operationId: 'listIntegrationEvents',
    checks: [
      proxyCheck('listIntegrationEvents', (ctx) => {
        if (ctx.target.ids.integrationId === undefined)
          return ctx.skip(
            `no integration to read (the embedded sandboxes start without one; against your tenant, set ${envVariableOf('integrationId')})`,
          );
        return listIntegrationEvents(ctx);
      }),
    ],
  },
];
