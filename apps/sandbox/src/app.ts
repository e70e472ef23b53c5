// Assembles the sandbox's HTTP application: request log, body limit, rate limiting, the routes,
// and one error handler that answers every failure with the service's status and body.
import { withoutQuerySecrets } from '@forms-api/client/redact';
import { OPERATIONS, type OperationId } from '@forms-api/types';
import { Hono, type Context, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientAddress } from './client-address.js';
import { bearerToken, type SandboxContext } from './context.js';
import { HttpError, json } from './http.js';
import { REQUEST_BODY_LIMIT_BYTES } from './limits.js';
import { operationOf } from './operations.js';
import { createRateLimiter, type RateLimitOptions } from './ratelimit.js';
import { adminRoutes } from './routes/admin.js';
import { answerRoutes } from './routes/answers.js';
import { exportRoutes } from './routes/export.js';
import { formWriteRoutes } from './routes/form-writes.js';
import { formRoutes } from './routes/forms.js';
import { integrationRoutes } from './routes/integrations.js';
import { storageRoutes } from './routes/storage.js';
import { submissionRoutes } from './routes/submissions.js';
import { workspaceUserRoutes } from './routes/workspace-users.js';
import { workspaceRoutes } from './routes/workspaces.js';

export interface AppOptions {
  rateLimit: RateLimitOptions | false;
  /** Reverse proxies in front of the sandbox whose X-Forwarded-For entries are believed (0: none). */
  trustedProxies: number;
  adminToken: string;
  /** Whether a request's `Host` header names the sandbox (host-check.ts). */
  hostAllowed: (host: string | undefined) => boolean;
  log: (line: string) => void;
}

/**
 * A request's path and query as the log prints them: as sent (percent-encoded, never decoded),
 * the values of credential-like parameters (a signed URL's `signature`) redacted by the client's
 * one redactor, and any control or non-ASCII character escaped as \xHH, so a request can neither
 * forge nor rewrite a log line.
 */
export const loggedTarget = (url: string): string => {
  const target = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url)?.[1] || '/';
  return withoutQuerySecrets(target).replace(/[^\x21-\x7e]/g, (ch) =>
    [...Buffer.from(ch, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''),
  );
};

export function createApp(ctx: SandboxContext, options: AppOptions): Hono {
  const app = new Hono();
  const limiter = createRateLimiter(options.rateLimit, ctx.now);
  // An operation the spec gives a bucket of its own (`x-rate-limit`: the export's 10 a minute per
  // user) is counted there instead of in the shared one.
  const bucketLimiters = new Map<string, ReturnType<typeof createRateLimiter>>();
  const limiterOf = (operation: OperationId | undefined) => {
    const own =
      operation &&
      (OPERATIONS[operation] as { rateLimit?: { bucket: string; limit: number; windowSeconds: number } }).rateLimit;
    if (!own) return limiter;
    let bucket = bucketLimiters.get(own.bucket);
    if (!bucket) {
      bucket = createRateLimiter(
        options.rateLimit && { limit: own.limit, windowMs: own.windowSeconds * 1000 },
        ctx.now,
      );
      bucketLimiters.set(own.bucket, bucket);
    }
    return bucket;
  };

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    options.log(
      `${c.req.method} ${loggedTarget(c.req.url)} -> ${c.res.status} (${(performance.now() - started).toFixed(1)} ms)`,
    );
  });

  // Before anything else reads the request: a rebinding page must not reach a route.
  app.use('*', async (c, next) => {
    const host = c.req.header('host');
    if (options.hostAllowed(host)) return next();
    const shown = JSON.stringify((host ?? '').slice(0, 100));
    return json(403, {
      message: `This sandbox does not answer requests for the host ${shown}: it answers its IP addresses, localhost and the hosts it is given. If you reach it by that name, start it with --allowed-host NAME (startSandbox({ allowedHosts: [NAME] })).`,
    });
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: REQUEST_BODY_LIMIT_BYTES,
      onError: () =>
        json(413, {
          message: `The request body is larger than the sandbox accepts (${REQUEST_BODY_LIMIT_BYTES} bytes); send a smaller body.`,
        }),
    }),
  );

  // Rate limit per token user (a valid token) or per client address; a missing or unknown token is
  // answered 401 before the limiter, as on the service.
  app.use('/open/*', async (c, next) => {
    if (/\/submissions\/file\//.test(c.req.path))
      return ctx.rules.fileRouteRateLimited
        ? limited(`ip:${clientAddress(c, options.trustedProxies)}`, c, next)
        : next();
    const secret = bearerToken(c);
    const owner = secret ? ctx.store.tokens.get(secret)?.userId : undefined;
    if (owner === undefined) return next();
    return limited(`user:${owner}`, c, next, limiterOf(operationOf(c.req.method, c.req.path)));
  });
  app.use('/forms/*', (c, next) => limited(`ip:${clientAddress(c, options.trustedProxies)}`, c, next));

  async function limited(key: string, c: Context, next: Next, bucket = limiter) {
    const decision = bucket(key);
    if (!decision.allowed) return json(429, { message: 'Too Many Attempts.' }, decision.headers);
    await next();
    for (const [name, value] of Object.entries(decision.headers)) c.res.headers.set(name, value);
  }

  formRoutes(app, ctx);
  formWriteRoutes(app, ctx);
  submissionRoutes(app, ctx);
  exportRoutes(app, ctx);
  integrationRoutes(app, ctx);
  answerRoutes(app, ctx);
  adminRoutes(app, ctx, options.adminToken);
  storageRoutes(app, ctx);
  workspaceRoutes(app, ctx);
  workspaceUserRoutes(app, ctx);

  app.notFound((c) => json(404, { message: `The route ${c.req.path.replace(/^\//, '')} could not be found.` }));
  app.onError((error) => {
    if (error instanceof HttpError) return json(error.status, error.body, error.headers);
    options.log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return json(500, { message: 'Server Error' });
  });
  return app;
}
