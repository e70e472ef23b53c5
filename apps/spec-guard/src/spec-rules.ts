// The rules above the schemas: operations, webhooks, parameters, request bodies and response
// statuses of the released spec that the current spec must still have, then the schemas of
// each, compared in the direction their data flows.
import { PATH_ITEM_METHODS as METHODS } from '@forms-api/spec/path-item-methods';
import { compareSchemas, deref, type Doc } from './schema-rules.js';
import type { BreakingChange, Json } from './types.js';

function operations(item: Json | undefined): Array<[string, Json]> {
  return METHODS.filter((m) => item?.[m]).map((m) => [m, item![m] as Json]);
}

function parameters(doc: Doc, item: Json, operation: Json): Map<string, Json> {
  const byKey = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const p = deref(doc, raw);
    if (p?.name && p.in) byKey.set(`${p.in} ${p.name}`, p);
  }
  return byKey;
}

/** One side of a comparison: the spec document, the path item (or webhook) and its operation. */
interface OperationSide {
  readonly doc: Doc;
  readonly item: Json;
  readonly operation: Json;
}

/** The breaking changes of one operation or webhook, from its `released` side to its `current` one. */
function compareOperation(options: {
  readonly released: OperationSide;
  readonly current: OperationSide;
  /** Where it is, as reported (`GET /forms/{id}`, `webhook submission.created`). */
  readonly label: string;
  readonly kind: 'operation' | 'webhook';
}): BreakingChange[] {
  const { doc: before, item: bItem, operation: b } = options.released;
  const { doc: after, item: aItem, operation: a } = options.current;
  const { label } = options;
  const isWebhook = options.kind === 'webhook';
  const out: BreakingChange[] = [];

  // What the client sends: parameters and the request body. For a webhook the service sends the
  // body and the client receives it, so its payload is compared as a response.
  if (!isWebhook) {
    const bParams = parameters(before, bItem, b);
    const aParams = parameters(after, aItem, a);
    for (const [key, p] of bParams) {
      const q = aParams.get(key);
      const where = `${label} parameter ${key}`;
      if (!q) {
        out.push({
          rule: 'request-parameter-removed',
          location: where,
          before: p.required ? 'required' : 'optional',
          after: '(removed)',
        });
        continue;
      }
      if (!p.required && q.required)
        out.push({ rule: 'request-parameter-became-required', location: where, before: 'optional', after: 'required' });
      out.push(...compareSchemas(before, after, p.schema, q.schema, 'request', where));
    }
    for (const [key, q] of aParams) {
      if (!bParams.has(key) && q.required) {
        out.push({
          rule: 'request-parameter-became-required',
          location: `${label} parameter ${key}`,
          before: '(absent)',
          after: 'required',
        });
      }
    }
  }

  const bBody = deref(before, b.requestBody);
  const aBody = deref(after, a.requestBody);
  const bodyDirection = isWebhook ? 'response' : 'request';
  if (!isWebhook && aBody?.required && !bBody?.required) {
    out.push({
      rule: 'request-body-became-required',
      location: `${label} request body`,
      before: bBody ? 'optional' : '(absent)',
      after: 'required',
    });
  }
  for (const [mediaType, media] of Object.entries<Json>(bBody?.content ?? {})) {
    const other = aBody?.content?.[mediaType];
    const where = `${label} ${isWebhook ? 'payload' : 'request body'} ${mediaType}`;
    if (!other) {
      if (isWebhook)
        out.push({ rule: 'response-property-removed', location: where, before: 'payload', after: '(removed)' });
      continue;
    }
    out.push(...compareSchemas(before, after, media.schema, other.schema, bodyDirection, where));
  }

  // What the client receives: the statuses it handles and their bodies.
  if (!isWebhook) {
    for (const [status, rawResponse] of Object.entries<Json>(b.responses ?? {})) {
      const where = `${label} response ${status}`;
      if (!(status in (a.responses ?? {}))) {
        out.push({ rule: 'response-status-removed', location: where, before: status, after: '(removed)' });
        continue;
      }
      const bResponse = deref(before, rawResponse);
      const aResponse = deref(after, a.responses[status]);
      for (const [mediaType, media] of Object.entries<Json>(bResponse?.content ?? {})) {
        const other = aResponse?.content?.[mediaType];
        if (!other) {
          out.push({
            rule: 'response-property-removed',
            location: `${where} ${mediaType}`,
            before: 'body',
            after: '(removed)',
          });
          continue;
        }
        out.push(...compareSchemas(before, after, media.schema, other.schema, 'response', `${where} ${mediaType}`));
      }
    }
  }
  return out;
}

/** Every change from `released` to `current` that breaks a client written against `released`. */
export function breakingChanges(released: Json, current: Json): BreakingChange[] {
  const before: Doc = { root: released };
  const after: Doc = { root: current };
  const out: BreakingChange[] = [];
  for (const [path, rawItem] of Object.entries<Json>(released.paths ?? {})) {
    const bItem = deref(before, rawItem) ?? {};
    const aItem = deref(after, current.paths?.[path]);
    for (const [method, op] of operations(bItem)) {
      const label = `${method.toUpperCase()} ${path}`;
      const other = aItem?.[method];
      if (!other) {
        out.push({ rule: 'operation-removed', location: label, before: op.operationId ?? label, after: '(removed)' });
        continue;
      }
      out.push(
        ...compareOperation({
          released: { doc: before, item: bItem, operation: op },
          current: { doc: after, item: aItem!, operation: other },
          label,
          kind: 'operation',
        }),
      );
    }
  }
  for (const [name, rawItem] of Object.entries<Json>(released.webhooks ?? {})) {
    const bItem = deref(before, rawItem) ?? {};
    const aItem = deref(after, current.webhooks?.[name]);
    for (const [method, op] of operations(bItem)) {
      const label = `webhook ${name}`;
      const other = aItem?.[method];
      if (!other) {
        out.push({
          rule: 'webhook-removed',
          location: label,
          before: `${method.toUpperCase()} ${name}`,
          after: '(removed)',
        });
        continue;
      }
      out.push(
        ...compareOperation({
          released: { doc: before, item: bItem, operation: op },
          current: { doc: after, item: aItem!, operation: other },
          label,
          kind: 'webhook',
        }),
      );
    }
  }
  return out;
}
