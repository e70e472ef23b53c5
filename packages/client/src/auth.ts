// The headers every request carries: the bearer token (never on the spec's public operations),
// the User-Agent, and `Accept: application/json` (without it the service answers an
// unauthenticated request with a redirect to its login page instead of a 401). They are
// openapi-fetch's `headers` option, merged into the one Request it builds: a middleware editing
// each Request afterwards cost more than the rest of the client's work on a call.
import { PUBLIC_PATHS } from './operations.js';

export function baseHeaders(token: string | null, userAgent: string): Record<string, string> {
  return {
    ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
    'User-Agent': userAgent,
    Accept: 'application/json',
  };
}

type WithParams = { params?: { header?: object } & object } | undefined;

/** A call's init, with the token left out when `schemaPath` is a public operation. */
export function withoutTokenIfPublic<I extends WithParams>(schemaPath: string, init: I): I {
  return PUBLIC_PATHS.has(schemaPath) ? withoutToken(init) : init;
}

/** A call's init that sends no token. */
export function withoutToken<I extends WithParams>(init: I): I {
  // `params.header` is merged last by openapi-fetch, and a null there removes the header.
  return { ...init, params: { ...init?.params, header: { ...init?.params?.header, Authorization: null } } } as I;
}
