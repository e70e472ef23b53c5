// Sandbox-only administration (not part of the service's API): restore the seed between tests.
// It needs the sandbox's admin token (printed in the JSON line), not a tenant's token.
import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { bearerToken, type SandboxContext } from '../context.js';
import { HttpError, json } from '../http.js';

export function adminRoutes(app: Hono, ctx: SandboxContext, adminToken: string): void {
  const expected = Buffer.from(adminToken);
  // No token presented is never the admin, whatever the configured token (startSandbox refuses an empty one too).
  const isAdmin = (presented: string | undefined) => {
    if (!presented || expected.length === 0) return false;
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  app.post('/__sandbox/reset', (c) => {
    if (!isAdmin(bearerToken(c)))
      throw new HttpError(401, {
        message:
          'Resetting the sandbox needs its admin token: send Authorization: Bearer <adminToken> (the adminToken of the JSON line the sandbox printed, or of startSandbox()).',
      });
    ctx.store.reset();
    return json(200, { type: 'success', message: 'The sandbox was reset to its seed.' });
  });
}
