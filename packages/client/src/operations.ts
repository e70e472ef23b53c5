// The operations of the open API, as the spec's generated table states them (method, path,
// abilities, public or not), and the naming of the operation a request URL belongs to.
import { OPERATIONS, type Ability, type OperationId, type OperationSpec } from '@forms-api/types';

/** The operation an error happened in: method, path template, operationId and abilities when known. */
export interface OperationInfo {
  readonly method: string;
  readonly path: string;
  readonly operationId?: OperationId;
  /** The token abilities that grant it (any one suffices); empty for a public operation. */
  readonly abilities?: readonly Ability[];
  /** Path parameter values (ids, slugs), used to name what was not found or not allowed. */
  readonly params?: Readonly<Record<string, string>>;
}

export function operation(id: OperationId): OperationSpec {
  return OPERATIONS[id];
}

const SPECS = Object.values(OPERATIONS) as readonly OperationSpec[];

/** Path templates of the operations that take no token (the answer endpoint, signed downloads). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(SPECS.filter((spec) => spec.public).map((spec) => spec.path));

// Compiled once: a template becomes an anchored pattern with one group per parameter.
const MATCHERS = SPECS.map((spec) => {
  const names: string[] = [];
  const source = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { spec, names, re: new RegExp(`^${source}/?$`) };
});

/**
 * Names the operation of a request from its method and URL. `basePath` is the path of the
 * client's baseUrl (a self-hosted instance may live under a prefix).
 */
export function describeOperation(method: string, url: string, basePath: string): OperationInfo {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return { method, path: url };
  }
  if (basePath && pathname.startsWith(basePath)) pathname = pathname.slice(basePath.length);
  for (const { spec, names, re } of MATCHERS) {
    if (spec.method !== method) continue;
    const m = re.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { method, path: spec.path, operationId: spec.operationId, abilities: spec.abilities, params };
  }
  return { method, path: pathname };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
