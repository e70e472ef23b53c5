// Fetch API receivers on Node, Bun or Deno (Hono, Next.js route handlers on the Node runtime,
// Remix, `Bun.serve`): verify, store the delivery in the inbox, answer 202 (503 when Redis cannot
// take it). Redis needs TCP, so not for Cloudflare Workers or other edge runtimes.
import { answerDelivery, answerHealth, type Answer, type HealthTarget } from '../answers.js';
import type { Inbox } from '../inbox.js';
import { answerMetrics } from '../telemetry/metrics.js';
import { traceReceive } from '../telemetry/tracing.js';
import { receiveConfigOf, verifyFetch } from '../verification.js';

const toResponse = (answer: Answer) => new Response(answer.body, { status: answer.status, headers: answer.headers });

/** `export const POST = inboxHandler(inbox)`, or `app.post('/webhooks/forms', (c) => handler(c.req.raw))`. */
export function inboxHandler(inbox: Inbox): (request: Request) => Promise<Response> {
  const config = receiveConfigOf(inbox);
  return (request) =>
    traceReceive(inbox.queue, async (span) => {
      const verified = await verifyFetch(request, config);
      const response = verified.ok ? toResponse(await answerDelivery(inbox, verified.delivery)) : verified.response;
      span.setAttribute('http.response.status_code', response.status);
      return response;
    });
}

/** A health-check route: 200 when Redis answers, 503 when not. */
export function inboxHealthHandler(target: HealthTarget): (request?: Request) => Promise<Response> {
  return async () => toResponse(await answerHealth(target));
}

/** A metrics route: this process's metrics in Prometheus text format. */
export function inboxMetricsHandler(): (request?: Request) => Promise<Response> {
  return async () => toResponse(await answerMetrics());
}
