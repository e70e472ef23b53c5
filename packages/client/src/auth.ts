// The openapi-fetch middleware that signs each request: the bearer token (never on the public
// operations of the spec), the User-Agent, and `Accept: application/json` (without it the service
// answers an unauthenticated request with a redirect to its login page instead of a 401).
import type { Middleware } from 'openapi-fetch';
import { PUBLIC_PATHS } from './operations.js';

export function authMiddleware(token: string, userAgent: string): Middleware {
  const authorization = `Bearer ${token}`;
  return {
    onRequest({ request, schemaPath }) {
      const headers = request.headers;
      if (!PUBLIC_PATHS.has(schemaPath)) headers.set('Authorization', authorization);
      headers.set('User-Agent', userAgent);
      if (!headers.has('Accept')) headers.set('Accept', 'application/json');
      return undefined;
    },
  };
}
