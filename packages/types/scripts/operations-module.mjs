// The operations table and the path→operation matcher of src/generated/operations.ts, as module
// text from a bundled spec (a module of its own so tests can generate it from other specs).
import { sharedRateLimit, specOperations, webhookDelivery } from '@forms-api/spec/operations';

/**
 * What the 200 answer of an operation holds: a JSON body when application/json is its only media
 * type (the key the generated types name it under), nothing when it has none, and otherwise a file
 * the client hands over unread (a CSV-or-JSON answer included: the caller reads its content type).
 */
function successOf(mediaTypes) {
  if (mediaTypes.length === 0) return 'empty';
  return mediaTypes.length === 1 && mediaTypes[0] === 'application/json' ? 'json' : 'file';
}

/** One row per operation, in the order the spec lists them: the facts the generated table keeps. */
export function operationRows(bundle) {
  return specOperations(bundle).map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    abilities: op.abilities,
    statuses: op.statuses,
    public: op.public,
    // What the client's generated method checks and returns: the query parameters' names, the
    // request body (none, optional or required) and the kind of the 200 answer.
    query: op.parameters.filter((p) => p.in === 'query').map((p) => p.name),
    body: op.jsonBody ? (op.jsonBody.required ? 'required' : 'optional') : 'none',
    success: successOf(op.successMediaTypes),
    // Only on an operation the service counts in a bucket of its own: the client's pacer reads it.
    ...(op.rateLimit ? { rateLimit: op.rateLimit } : {}),
  }));
}

/**
 * The routes of the operations, in the order `matchOperation` tries them: segment by segment from
 * the left, a literal segment before a parameter (the OpenAPI rule "concrete paths are matched
 * before their templated counterparts", applied where two templates first differ), then by method
 * and operationId so the order never depends on the spec's listing.
 */
function routeRows(rows) {
  const segmentsOf = (path) => path.split('/').slice(1);
  const isParam = (segment) => /^\{[^}]+\}$/.test(segment);
  const byPrecedence = (a, b) => {
    const [sa, sb] = [segmentsOf(a.path), segmentsOf(b.path)];
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
      if (isParam(sa[i]) !== isParam(sb[i])) return isParam(sa[i]) ? 1 : -1;
    }
    return sa.length - sb.length || a.method.localeCompare(b.method) || a.operationId.localeCompare(b.operationId);
  };
  return [...rows].sort(byPrecedence).map((r) => {
    const segments = segmentsOf(r.path).map((segment) =>
      isParam(segment) ? { param: segment.slice(1, -1) } : { literal: segment },
    );
    for (const s of segments)
      if (s.literal !== undefined && /[{}]/.test(s.literal))
        throw new Error(
          `${r.method} ${r.path}: a segment mixes a literal and a parameter; matchOperation handles whole-segment parameters only`,
        );
    return { operationId: r.operationId, method: r.method, segments };
  });
}

export function operationsModule(rows) {
  const abilities = [...new Set(rows.flatMap((r) => r.abilities))].sort();
  const lines = rows.map((r) => `  ${r.operationId}: ${JSON.stringify(r)},`);
  const routes = routeRows(rows).map((r) => `  ${JSON.stringify(r)},`);
  return `
/** Token abilities named by the operations' security requirements. */
export const ABILITIES = ${JSON.stringify(abilities)} as const;

/**
 * Every operation of the open API: method, path template, the token abilities that grant it (any
 * one suffices; empty when public), the documented response statuses, whether it is public, the
 * names of its query parameters, its request body (\`none\`, \`optional\`, \`required\`), what its
 * 200 answer holds (\`json\`, a \`file\` the client hands over unread, or \`empty\`) and, for an
 * operation the service counts in a rate-limit bucket of its own, that bucket (\`rateLimit\`: its
 * name, \`limit\` requests per \`windowSeconds\`).
 */
export const OPERATIONS = {
${lines.join('\n')}
} as const;

type Segment = { readonly literal: string; readonly param?: undefined } | { readonly param: string; readonly literal?: undefined };

/**
 * The operations' path templates split into segments, in the order \`matchOperation\` tries them:
 * where two templates first differ, the literal segment wins over the parameter.
 */
const ROUTES: readonly { readonly operationId: keyof typeof OPERATIONS; readonly method: string; readonly segments: readonly Segment[] }[] = [
${routes.join('\n')}
];

/** The operation a request is for, with its path parameters (percent-decoded). */
export interface OperationMatch {
  readonly operationId: keyof typeof OPERATIONS;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The operation of a request, from its method and path (the one matcher of the toolkit; the client
 * and the sandbox use it). Rules:
 * - \`method\` is compared without regard to case;
 * - \`path\` is the URL's path relative to the API root (no base path), optionally followed by a
 *   query (\`?…\`) or fragment (\`#…\`), which are ignored; a full URL does not match;
 * - segments are compared before decoding, so an encoded \`/\` (\`%2F\`) stays inside its parameter and
 *   a literal matches only as written; a parameter matches any non-empty segment;
 * - a trailing slash or an empty segment (\`//\`) matches nothing (the sandbox's router is strict);
 * - where several templates match, the one with a literal at the leftmost differing segment wins;
 * - parameter values are percent-decoded; a malformed escape (\`%zz\`) is kept as sent.
 * Returns undefined when no operation has this method and path.
 */
export function matchOperation(method: string, path: string): OperationMatch | undefined {
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  if (!pathname.startsWith('/')) return undefined;
  const segments = pathname.slice(1).split('/');
  const upper = method.toUpperCase();
  for (const route of ROUTES) {
    if (route.method !== upper || route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, i) => {
      const sent = segments[i]!;
      if (segment.param === undefined) return segment.literal === sent;
      if (sent === '') return false;
      params[segment.param] = decodeSegment(sent);
      return true;
    });
    if (matches) return { operationId: route.operationId, params };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
`;
}

/**
 * The service-wide facts of src/generated/operations.ts that are no operation's: the shared
 * rate-limit bucket and how the `submission.created` webhook is delivered.
 */
export function serviceModule(bundle) {
  return `
/**
 * The rate-limit bucket every operation without one of its own is counted in, per user: \`limit\`
 * requests per \`windowSeconds\` (the spec's \`x-rate-limit\`). Whatever talks to a tenant keeps within it.
 */
export const SHARED_RATE_LIMIT = ${JSON.stringify(sharedRateLimit(bundle))} as const;

/**
 * How the service sends a \`submission.created\` webhook (the spec's \`x-delivery\`): \`attempts\`, the
 * seconds it waits for the receiver's answer (\`timeoutSeconds\`), and whether it follows a redirect.
 */
export const WEBHOOK_DELIVERY = ${JSON.stringify(webhookDelivery(bundle, 'submission.created'))} as const;
`;
}
