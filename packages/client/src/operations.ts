// The operations of the open API, as the spec's generated table states them (method, path,
// abilities, public or not), and the naming of the operation a request URL belongs to.
import { OPERATIONS, matchOperation, type Ability, type OperationId, type OperationSpec } from '@forms-api/types';

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

/** A row of an operations table, as the generated methods read it (OPERATIONS, or a copy in a test). */
export interface OperationRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly public: boolean;
  readonly query: readonly string[];
  readonly body: 'none' | 'optional' | 'required';
  readonly success: 'json' | 'file' | 'empty';
  /** The rate-limit bucket of its own the service counts it in; absent: the shared one. */
  readonly rateLimit?: { readonly bucket: string; readonly limit: number; readonly windowSeconds: number };
}

export function operation(id: OperationId): OperationSpec & Pick<OperationRow, 'rateLimit'> {
  return OPERATIONS[id];
}

const SPECS = Object.values(OPERATIONS) as readonly OperationSpec[];

/** Path templates of the operations that take no token (the answer endpoint, signed downloads). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(SPECS.filter((spec) => spec.public).map((spec) => spec.path));

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
  const match = matchOperation(method, pathname);
  if (!match) return { method, path: pathname };
  const spec = OPERATIONS[match.operationId];
  return { method, path: spec.path, operationId: spec.operationId, abilities: spec.abilities, params: match.params };
}
