// The operations of a bundled spec, as the toolkit derives everything from them: method, path,
// abilities, statuses, parameters (with what each path parameter identifies), request body,
// success media type and links. The one reader of operation facts: the types generator, the
// contract suite and its explorer all start here, so a new operation in the spec reaches each.
import { PATH_ITEM_METHODS } from './path-item-methods.mjs';

/** Follows a local `$ref` (`#/components/...`) of the bundle; other values are returned as they are. */
export function resolved(bundle, value) {
  let current = value;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot follow $ref ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => node?.[key], bundle);
  }
  return current;
}

/**
 * The top-level properties of a body schema (its `allOf` parts included) that name a resource of
 * the tenant (`x-identifies`), as a path parameter does: filled from the target, like the path.
 */
function identifyingProperties(bundle, schema) {
  const found = [];
  const visit = (node) => {
    const s = resolved(bundle, node);
    if (!s || typeof s !== 'object') return;
    for (const part of s.allOf ?? []) visit(part);
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      const identifies = property['x-identifies'] ?? resolved(bundle, property)?.['x-identifies'];
      if (typeof identifies === 'string') found.push({ name, identifies });
    }
  };
  visit(schema);
  return found;
}

/** Every operation of `bundle`, in the order the spec lists them. */
export function specOperations(bundle) {
  const operations = [];
  for (const [path, item] of Object.entries(bundle.paths ?? {})) {
    for (const method of PATH_ITEM_METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const security = op.security ?? bundle.security ?? [];
      // Each requirement is an alternative; its scopes are the token abilities it needs.
      const abilities = [...new Set(security.flatMap((requirement) => Object.values(requirement).flat()))];
      const statuses = Object.keys(op.responses ?? {})
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number)
        .sort((a, b) => a - b);
      // Operation-level parameters override path-item ones with the same name and location.
      const byKey = new Map();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = resolved(bundle, raw);
        byKey.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: p.schema ?? {},
          ...(typeof p['x-identifies'] === 'string' ? { identifies: p['x-identifies'] } : {}),
          // What a value that names nothing is answered: 404 unless the service says otherwise.
          ...(p.in === 'path' ? { unknownStatus: p['x-unknown-status'] ?? 404 } : {}),
        });
      }
      const body = resolved(bundle, op.requestBody);
      const bodySchema = body?.content?.['application/json']?.schema;
      const success = resolved(bundle, op.responses?.['200']);
      // A list's rows (the 200 is an array, or a page's `data`): the properties naming their parent.
      const answer = resolved(bundle, success?.content?.['application/json']?.schema);
      const rows = answer?.type === 'array' ? answer.items : resolved(bundle, answer?.properties?.data)?.items;
      const rowIdentifying = rows ? identifyingProperties(bundle, rows) : [];
      const rowOrder = orderOf(
        answer?.type === 'array' ? answer : resolved(bundle, answer?.properties?.data),
        op.operationId,
      );
      const links = Object.entries(success?.links ?? {}).map(([name, link]) => ({
        name,
        operationId: link.operationId,
        parameters: link.parameters ?? {},
      }));
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        abilities,
        statuses,
        public: security.length === 0,
        parameters: [...byKey.values()],
        ...(body?.content?.['application/json']
          ? {
              jsonBody: {
                schema: bodySchema ?? {},
                required: body.required === true,
                identifying: identifyingProperties(bundle, bodySchema),
              },
            }
          : {}),
        successMediaTypes: Object.keys(success?.content ?? {}),
        links,
        ...(rowIdentifying.length > 0 ? { rowIdentifying } : {}),
        ...(rowOrder ? { rowOrder } : {}),
        ...(op['x-rate-limit'] === undefined ? {} : { rateLimit: rateLimitOf(op['x-rate-limit'], op.operationId) }),
      });
    }
  }
  return operations;
}

/**
 * The order a list states for its rows (`x-order` on its array): a pointer into a row and a
 * direction. A malformed one fails here, so that no check judges by a guess.
 */
function orderOf(array, operationId) {
  const order = array?.['x-order'];
  if (order === undefined) return undefined;
  if (
    typeof order?.by !== 'string' ||
    !/^(\/[^/]+)+$/.test(order.by) ||
    (order.direction !== 'descending' && order.direction !== 'ascending')
  )
    throw new Error(
      `${operationId}: x-order must be { by: a JSON pointer into a row, direction: descending | ascending }, got ${JSON.stringify(order)}`,
    );
  return { by: order.by, descending: order.direction === 'descending' };
}

/**
 * An operation's own rate-limit bucket (`x-rate-limit`): its name, and how many requests a window
 * of `windowSeconds` allows. A malformed one fails here, so that no pacer derives from a guess.
 */
function rateLimitOf(value, operationId) {
  const { bucket, limit, windowSeconds } = value ?? {};
  const positive = (n) => Number.isInteger(n) && n > 0;
  if (typeof bucket !== 'string' || !/^[a-z][a-z0-9-]*$/.test(bucket) || !positive(limit) || !positive(windowSeconds))
    throw new Error(
      `${operationId}: x-rate-limit needs a bucket name (lower-case word), a positive integer limit and windowSeconds`,
    );
  return { bucket, limit, windowSeconds };
}

/** The bucket every operation without one of its own is counted in: the document's `x-rate-limit`. */
export function sharedRateLimit(bundle) {
  return rateLimitOf(bundle['x-rate-limit'], 'the document');
}

/**
 * How the service sends the webhook `name` (`x-delivery` of its POST): how many attempts, how many
 * seconds it waits for the receiver's answer, and whether it follows a redirect. A malformed one
 * fails here, so that no receiver's deadline derives from a guess.
 */
export function webhookDelivery(bundle, name) {
  const post = resolved(bundle, bundle.webhooks?.[name])?.post;
  if (!post) throw new Error(`the spec has no webhook ${name}`);
  const { attempts, timeoutSeconds, followsRedirects } = post['x-delivery'] ?? {};
  if (
    !(Number.isInteger(attempts) && attempts > 0) ||
    !(typeof timeoutSeconds === 'number' && timeoutSeconds > 0) ||
    typeof followsRedirects !== 'boolean'
  )
    throw new Error(
      `webhook ${name}: x-delivery needs a positive integer attempts, a positive timeoutSeconds and a boolean followsRedirects`,
    );
  return { attempts, timeoutSeconds, followsRedirects };
}
