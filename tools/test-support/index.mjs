// Support for tests and tools that start real servers. `freePort` is the one of
// `@forms-api/internal`, which the contract suite inlines too: written once for both.
export { freePort } from '@forms-api/internal/free-port';
