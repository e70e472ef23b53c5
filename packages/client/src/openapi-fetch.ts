// openapi-fetch's createClient, whichever way it was loaded. Its CommonJS build marks itself
// `__esModule` and sets `exports.default`; our .cjs build loads it with Node's interop, where the
// default import is the whole exports object. The ESM build gets the function directly.
import createClientImport from 'openapi-fetch';

type CreateClient = typeof createClientImport;

export const createClient: CreateClient =
  typeof createClientImport === 'function'
    ? createClientImport
    : (createClientImport as unknown as { default: CreateClient }).default;
