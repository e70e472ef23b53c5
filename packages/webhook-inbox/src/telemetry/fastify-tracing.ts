// Traces for the Fastify plugin, whose verification runs in webhook-verify's preHandler: hooks open
// the receive span when the request arrives and the verify span just before that preHandler; the
// route closes the verify span and enqueues with the receive span active; the answer closes both.
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INSTRUMENTATION_NAME } from './metrics.js';
import { ATTRIBUTES, failSpan, payloadAttributes, SPANS } from './tracing.js';

interface RequestSpans {
  receive: Span;
  verify: Span | undefined;
}

const spans = new WeakMap<FastifyRequest, RequestSpans>();
const tracer = () => trace.getTracer(INSTRUMENTATION_NAME);

/** Call before registering webhook-verify in the scope, so the verify span opens before its preHandler. */
export function traceFastifyScope(scope: FastifyInstance, queue: string): void {
  scope.addHook('onRequest', async (request) => {
    spans.set(request, {
      receive: tracer().startSpan(SPANS.receive, { kind: SpanKind.SERVER, attributes: { [ATTRIBUTES.queue]: queue } }),
      verify: undefined,
    });
  });
  scope.addHook('preHandler', async (request) => {
    const open = spans.get(request);
    if (open) open.verify = tracer().startSpan(SPANS.verify, {}, trace.setSpan(context.active(), open.receive));
  });
  scope.addHook('onResponse', async (request, reply) => {
    const open = spans.get(request);
    if (!open) return;
    open.verify?.end();
    open.receive.setAttribute('http.response.status_code', reply.statusCode);
    open.receive.end();
    spans.delete(request);
  });
}

/** A rejection answered by webhook-verify: both spans end as errors with its reason. */
export function markFastifyRejected(request: FastifyRequest, reason: string): void {
  const open = spans.get(request);
  if (!open) return;
  if (open.verify) failSpan(open.verify, undefined, reason);
  failSpan(open.receive, undefined, reason);
}

/** In the route: verification passed (its ids go on both spans); runs `fn` with the receive span active. */
export function withinFastifyReceive<T>(request: FastifyRequest, payload: unknown, fn: () => Promise<T>): Promise<T> {
  const open = spans.get(request);
  if (!open) return fn();
  const ids = payloadAttributes(payload as { form_id?: unknown; submission_id?: unknown });
  open.verify?.setAttributes(ids);
  open.verify?.end();
  open.verify = undefined;
  open.receive.setAttributes(ids);
  return context.with(trace.setSpan(context.active(), open.receive), fn);
}
