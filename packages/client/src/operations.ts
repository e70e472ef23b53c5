// The operations of the open API this client knows: operationId, ability and whether a retry is
// safe. Used to name the operation in errors and to explain a 403 with the ability it needs.
import type { Ability, OperationId } from '@forms-api/types';

export interface OperationSpec {
  readonly operationId: OperationId;
  readonly method: string;
  /** The path template, as in the spec. */
  readonly path: string;
  /** The token ability it needs; null for the public endpoints. */
  readonly ability: Ability | null;
}

/** The operation an error happened in: method, path template and operationId when known. */
export interface OperationInfo {
  readonly method: string;
  readonly path: string;
  readonly operationId?: OperationId;
  readonly ability?: Ability | null;
  /** Path parameter values (ids, slugs), used to name what was not found or not allowed. */
  readonly params?: Readonly<Record<string, string>>;
}

export const PUBLIC_ANSWER_PATH = '/forms/{form}/answer';

const SPECS: readonly OperationSpec[] = [
  { operationId: 'listWorkspaceForms', method: 'GET', path: '/open/workspaces/{workspaceId}/forms', ability: 'forms-read' },
  { operationId: 'getForm', method: 'GET', path: '/open/forms/{form}', ability: 'forms-read' },
  { operationId: 'listFormSubmissions', method: 'GET', path: '/open/forms/{id}/submissions', ability: 'forms-read' },
  { operationId: 'updateFormSubmission', method: 'PUT', path: '/open/forms/{id}/submissions/{submission_id}', ability: 'forms-write' },
  { operationId: 'listFormIntegrations', method: 'GET', path: '/open/forms/{form}/integrations', ability: 'manage-integrations' },
  { operationId: 'createFormIntegration', method: 'POST', path: '/open/forms/{form}/integrations', ability: 'manage-integrations' },
  { operationId: 'updateFormIntegration', method: 'PUT', path: '/open/forms/{form}/integrations/{integrationid}', ability: 'manage-integrations' },
  { operationId: 'deleteFormIntegration', method: 'DELETE', path: '/open/forms/{form}/integrations/{integrationid}', ability: 'manage-integrations' },
  { operationId: 'listIntegrationEvents', method: 'GET', path: '/open/forms/{form}/integrations/{integrationid}/events', ability: 'manage-integrations' },
  { operationId: 'createFormAnswer', method: 'POST', path: PUBLIC_ANSWER_PATH, ability: null },
];

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
    return { method, path: spec.path, operationId: spec.operationId, ability: spec.ability, params };
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
