// Sandbox-only administration (not part of the service's API): restore the seed between tests.
import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';

export function adminRoutes(app: Hono, ctx: SandboxContext): void {
  app.post('/__sandbox/reset', (c) => {
    ctx.store.reset();
    return c.json({ type: 'success', message: 'The sandbox was reset to its seed.' });
  });
}
