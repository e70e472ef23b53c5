// A helper's request and response without openapi-fetch's per-call machinery: the URL, headers
// and body openapi-fetch would build for the helper's simple parameters, and its way of reading
// the answer. Building a Request, merging Headers and running middleware cost a helper call more
// than everything else the client does; when middleware is registered, helpers go through
// openapi-fetch instead. A test sends every helper both ways and compares what the server saw.
import { OPERATIONS } from '@forms-api/types';
import { readLimited } from './body-limit.js';
import type { FormsApiError } from './errors.js';
import { PUBLIC_PATHS } from './operations.js';
import type { Outgoing } from './transport.js';

export interface DirectParams {
  readonly path?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, unknown>>;
}

export interface DirectRequests {
  build(method: string, path: string, params: DirectParams | undefined, body: unknown, search: string | undefined): Outgoing;
}

export function directRequests(baseUrl: string, headers: Readonly<Record<string, string>>): DirectRequests {
  const { Authorization: _token, ...unsigned } = headers;
  // Shared, frozen: fetch copies the headers it is given into the Request it builds.
  const variants = {
    signed: Object.freeze({ ...headers }),
    signedJson: Object.freeze({ ...headers, 'Content-Type': 'application/json' }),
    unsigned: Object.freeze(unsigned),
    unsignedJson: Object.freeze({ ...unsigned, 'Content-Type': 'application/json' }),
  };
  return {
    build(method, path, params, body, search) {
      const isPublic = PUBLIC_PATHS.has(path);
      const json = body !== undefined;
      const url = `${baseUrl}${expandPath(path, params?.path)}${search ?? queryString(params?.query)}`;
      const chosen = isPublic ? (json ? variants.unsignedJson : variants.unsigned) : json ? variants.signedJson : variants.signed;
      return {
        method,
        url,
        input: url,
        // Only what differs from fetch's defaults (GET, redirect 'follow'): fetch converts each
        // member of the init it is given, a measurable cost per call on Node 20 (bench/profile.mjs).
        init: method === 'GET' ? { headers: chosen } : { method, headers: chosen },
        body: json ? JSON.stringify(body) : undefined,
        readByCaller: true,
      };
    },
  };
}

/** A path template split once into its literal parts (even indexes) and parameter names (odd). */
function compile(path: string): readonly string[] {
  return path.split(/\{([^}]+)\}/);
}

const TEMPLATES: ReadonlyMap<string, readonly string[]> = new Map(Object.values(OPERATIONS).map(({ path }) => [path, compile(path)]));

/** `{name}` segments replaced by their encoded values, as openapi-fetch's default path serializer. */
function expandPath(path: string, values: Readonly<Record<string, string | number>> | undefined): string {
  if (!values) return path;
  const parts = TEMPLATES.get(path) ?? compile(path);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]!];
    out += (value === undefined || value === null ? `{${parts[i]}}` : encodeURIComponent(value)) + parts[i + 1]!;
  }
  return out;
}

/** `?a=1&b=x` for defined primitive values, in key order, as openapi-fetch's default query serializer. */
function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  if (!query) return '';
  let out = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    out += `${out ? '&' : '?'}${name}=${encodeURIComponent(value as string | number | boolean)}`;
  }
  return out;
}

/**
 * The answer's body as openapi-fetch reads it: nothing for 204 or an empty body; for a 2xx, JSON;
 * for an error, JSON when it parses, else the text. Read with the cap (`readLimited`), and
 * without asking the headers (each `headers.get` cost more than a microsecond).
 */
export async function readAnswer(response: Response, max: number, tooLarge: () => FormsApiError): Promise<{ data?: unknown; error?: unknown }> {
  if (response.status === 204) {
    await response.body?.cancel();
    return {};
  }
  const text = await readLimited(response, max, tooLarge);
  if (response.ok) return { data: text ? JSON.parse(text) : undefined };
  if (!text) return {};
  try {
    return { error: JSON.parse(text) };
  } catch {
    return { error: text };
  }
}
