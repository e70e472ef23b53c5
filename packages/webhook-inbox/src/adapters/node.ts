// Express (4 and 5), Connect and node:http receivers: verify the raw body, store the delivery in the
// inbox, answer 202 (or 503 when Redis cannot take it). Also a health-check route.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answerDelivery, answerHealth, type Answer, type HealthTarget } from '../answers.js';
import type { Inbox } from '../inbox.js';
import { answerMetrics } from '../telemetry/metrics.js';
import { traceReceive } from '../telemetry/tracing.js';
import { receiveConfigOf, verifyNode, writeFailure } from '../verification.js';

type Next = (error?: unknown) => void;

function send(res: ServerResponse, answer: Answer): void {
  if (!res.headersSent) res.writeHead(answer.status, answer.headers).end(answer.body);
}

/**
 * Hands an error to `next`, or answers it (500) without one. A `next` that throws (plain node:http
 * code, a minimal router) must not become an unhandled rejection, which ends the process: the
 * request is answered 500 instead, or its socket closed if the answer had already started.
 */
function fail(res: ServerResponse, error: unknown, next: Next | undefined): void {
  try {
    if (next) next(error);
    else writeFailure(res, error);
  } catch (thrown) {
    if (!res.headersSent) writeFailure(res, thrown);
    else res.destroy();
  }
}

/**
 * The webhook route: `app.post('/webhooks/forms', inboxMiddleware(inbox))`, or
 * `http.createServer(inboxMiddleware(inbox))`. Mount it before any `express.json()`, or give the
 * route `express.raw({ type: 'application/json' })`. It answers every request itself; only an
 * unexpected error goes to `next` (answered 500 without Express); a body a parser read first is
 * answered JSON 500 with its fix.
 */
export function inboxMiddleware(inbox: Inbox): (req: IncomingMessage, res: ServerResponse, next?: Next) => void {
  const config = receiveConfigOf(inbox);
  const receive = (req: IncomingMessage, res: ServerResponse) =>
    traceReceive(inbox.queue, async (span) => {
      const delivery = await verifyNode(req, res, config);
      if (delivery) send(res, await answerDelivery(inbox, delivery));
      span.setAttribute('http.response.status_code', res.statusCode);
    });
  return (req, res, next) => {
    receive(req, res).catch((error: unknown) => fail(res, error, next));
  };
}

/** `app.get('/healthz', inboxHealthMiddleware(inbox))`: 200 when Redis answers, 503 when not. */
export function inboxHealthMiddleware(
  target: HealthTarget,
): (req: IncomingMessage, res: ServerResponse, next?: Next) => void {
  return (_req, res, next) => {
    answerHealth(target).then(
      (answer) => send(res, answer),
      (error: unknown) => fail(res, error, next),
    );
  };
}

/**
 * Stops accepting connections and resolves once every open one has ended: those idle now are
 * closed at once, those with a request in progress as soon as it has been answered (instead of
 * lingering as keep-alive connections). For `closeOnSignals([() => closeHttpServer(server), inbox])`.
 */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close((error) => {
      clearInterval(sweep);
      // Closing a server that was not listening is not a failure of the shutdown.
      if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** `app.get('/metrics', inboxMetricsMiddleware())`: this process's metrics in Prometheus text format. */
export function inboxMetricsMiddleware(): (req: IncomingMessage, res: ServerResponse, next?: Next) => void {
  return (_req, res, next) => {
    answerMetrics().then(
      (answer) => send(res, answer),
      (error: unknown) => (next ? next(error) : writeFailure(res, error)),
    );
  };
}
