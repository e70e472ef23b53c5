// The suite's view of the spec's operations: read once per bundle with specOperations, so the
// checks, the check context and the proxy pass derive everything from the spec they run against.
import { resolved, specOperations, type SpecOperation, type SpecParameter } from '@forms-api/spec/operations';

export type { SpecOperation, SpecParameter };

const cache = new WeakMap<object, ReadonlyMap<string, SpecOperation>>();

/** Every operation of `bundle`, by operationId, in the spec's order. */
export function operationsOf(bundle: Record<string, unknown>): ReadonlyMap<string, SpecOperation> {
  let operations = cache.get(bundle);
  if (!operations) {
    operations = new Map(specOperations(bundle).map((op) => [op.operationId, op]));
    cache.set(bundle, operations);
  }
  return operations;
}

/** The path parameters that name something of the tenant (`x-identifies`), in path order. */
export const identifiedParameters = (op: SpecOperation): SpecParameter[] =>
  op.parameters.filter((p) => p.in === 'path' && p.identifies !== undefined);

/** The parameter a 404 check makes unknown: the last one the path identifies (the thing addressed). */
export const addressedParameter = (op: SpecOperation): SpecParameter | undefined => identifiedParameters(op).at(-1);

const branches = (schema: Record<string, unknown>): Array<Record<string, unknown>> =>
  Array.isArray(schema.oneOf) ? (schema.oneOf as Array<Record<string, unknown>>) : [schema];

/** A parameter that takes an id or a slug (`oneOf` an integer and a string). */
export const takesIdOrSlug = (p: SpecParameter): boolean =>
  branches(p.schema).some((b) => b.type === 'integer') && branches(p.schema).some((b) => b.type === 'string');

/** A parameter whose value may be a string (a slug, a file name): its unknown value is a name, not a number. */
export const takesString = (p: SpecParameter): boolean => branches(p.schema).some((b) => b.type === 'string');

/** The spec's example of an operation's JSON request body (the media type's `example`, or its first `examples`). */
export function requestExample(bundle: Record<string, any>, op: SpecOperation): unknown {
  const body = resolved(bundle, bundle.paths?.[op.path]?.[op.method.toLowerCase()]?.requestBody) as any;
  const media = body?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = resolved(bundle, Object.values(media.examples ?? {})[0]) as { value?: unknown } | undefined;
  return first?.value ?? media.schema?.example;
}

/**
 * How a temporary resource for `param` of `op` is made, read from the links of the spec: the
 * write whose 200 links to `op` and fills `param` from its response (`$response.body#/…`).
 */
export interface Provenance {
  readonly creator: SpecOperation;
  /** The link expression of the new id (`$response.body#/form_integration/id`). */
  readonly idExpression: string;
  /** The creator's path parameters -> this operation's (`$request.path.form` fills `form`). */
  readonly fromCreatorPath: Readonly<Record<string, string>>;
}

const RESPONSE_BODY = '$response.body#';
const REQUEST_PATH = '$request.path.';

export function provenanceOf(
  operations: ReadonlyMap<string, SpecOperation>,
  op: SpecOperation,
  param: SpecParameter,
): Provenance | undefined {
  for (const creator of operations.values()) {
    // A read makes nothing: a link from a list to its first item would address the user's own data.
    if (creator.method === 'GET') continue;
    const link = creator.links.find(
      (l) => l.operationId === op.operationId && l.parameters[param.name]?.startsWith(RESPONSE_BODY),
    );
    if (!link) continue;
    const fromCreatorPath = Object.fromEntries(
      Object.entries(link.parameters)
        .filter(([, expr]) => expr.startsWith(REQUEST_PATH))
        .map(([name, expr]) => [expr.slice(REQUEST_PATH.length), name]),
    );
    return { creator, idExpression: link.parameters[param.name]!, fromCreatorPath };
  }
  return undefined;
}

/** A path segment of a URL decoded, or as it is when its escapes are malformed. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether `op` takes the query parameter `name` (`page`, `per_page`…). */
export function takesQuery(op: SpecOperation, name: string): boolean {
  return op.parameters.some((p) => p.in === 'query' && p.name === name);
}

/** What each path parameter of `op` that identifies something was in a request to `url` (`identifies` -> value), read from the URL's last segments. */
export function pathValues(op: SpecOperation, url: string): Map<string, string> {
  const template = op.path.split('/').filter(Boolean);
  const actual = new URL(url).pathname.split('/').filter(Boolean).slice(-template.length);
  const values = new Map<string, string>();
  for (const [i, part] of template.entries()) {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    const identifies = name && op.parameters.find((p) => p.in === 'path' && p.name === name)?.identifies;
    if (identifies && actual[i] !== undefined) values.set(identifies, decodedSegment(actual[i]!));
  }
  return values;
}

/** The value a link expression names: a path parameter of the request, or a JSON pointer into the response body. */
export function linkValue(
  expression: string,
  requestPath: Readonly<Record<string, string | number>>,
  responseBody: unknown,
): unknown {
  if (expression.startsWith(REQUEST_PATH)) return requestPath[expression.slice(REQUEST_PATH.length)];
  if (expression.startsWith(RESPONSE_BODY))
    return expression
      .slice(RESPONSE_BODY.length)
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>(
        (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
        responseBody,
      );
  return undefined;
}

/**
 * The names of a schema's top-level properties, `$ref`s followed and the branches of `allOf`,
 * `oneOf` and `anyOf` merged (a property of any branch is one the body may carry).
 */
export function topLevelProperties(
  bundle: Record<string, unknown>,
  schema: unknown,
  seen = new Set<unknown>(),
): string[] {
  const s = resolved(bundle, schema) as Record<string, unknown> | undefined;
  if (!s || typeof s !== 'object' || seen.has(s)) return [];
  seen.add(s);
  const names = Object.keys((s.properties as Record<string, unknown> | undefined) ?? {});
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of Array.isArray(s[key]) ? (s[key] as unknown[]) : [])
      names.push(...topLevelProperties(bundle, branch, seen));
  return [...new Set(names)];
}

/**
 * The names a schema requires, `$ref`s followed and its `allOf` parts included (a branch of
 * `oneOf`/`anyOf` requires nothing of the whole), beside `topLevelProperties`, which reads every branch.
 */
export function requiredProperties(bundle: Record<string, unknown>, schema: unknown): string[] {
  const s = resolved(bundle, schema) as { required?: string[]; allOf?: unknown[] } | undefined;
  if (!s || typeof s !== 'object') return [];
  return [...new Set([...(s.required ?? []), ...(s.allOf ?? []).flatMap((part) => requiredProperties(bundle, part))])];
}

/** The JSON schema of each documented status of `op` whose answer is JSON (`$ref`s of the response followed). */
export function responseSchemas(bundle: Record<string, any>, op: SpecOperation): ReadonlyMap<number, unknown> {
  const responses = bundle.paths?.[op.path]?.[op.method.toLowerCase()]?.responses ?? {};
  const schemas = new Map<number, unknown>();
  for (const status of op.statuses) {
    const response = resolved(bundle, responses[String(status)]) as { content?: Record<string, any> } | undefined;
    const json = Object.entries(response?.content ?? {}).find(([type]) => /^application\/(.+\+)?json/.test(type));
    if (json?.[1]?.schema) schemas.set(status, json[1].schema);
  }
  return schemas;
}
