// The inbox's traces, through the OpenTelemetry API only (no-op until the application registers a
// TracerProvider): one trace per delivery, receive → verify → enqueue in the receiver, then BullMQ's
// `process` span in the worker (bullmq-otel stores the trace context with the job) → handle.
import {
  context,
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { Telemetry } from 'bullmq';
import { BullMQOtel, BullMQOTelSpan } from 'bullmq-otel';
import { INSTRUMENTATION_NAME } from './metrics.js';

/** Span attribute names. */
export const ATTRIBUTES = {
  queue: 'forms_inbox.queue',
  deliveryId: 'forms_inbox.delivery_id',
  formId: 'forms_inbox.form_id',
  submissionId: 'forms_inbox.submission_id',
  attempt: 'forms_inbox.attempt',
  rejection: 'forms_inbox.rejection',
} as const;

/** Span names, in the order a delivery goes through them. */
export const SPANS = {
  receive: 'webhook receive',
  verify: 'webhook verify',
  enqueue: 'webhook enqueue',
  handle: 'webhook handle',
} as const;

const tracer = () => trace.getTracer(INSTRUMENTATION_NAME);

interface DeliveryIds {
  form_id?: unknown;
  submission_id?: unknown;
}

/** The form and submission of a verified payload, as span attributes. */
export function payloadAttributes(payload: DeliveryIds | null | undefined): Attributes {
  const attributes: Attributes = {};
  if (typeof payload?.form_id === 'number' || typeof payload?.form_id === 'string')
    attributes[ATTRIBUTES.formId] = payload.form_id;
  if (typeof payload?.submission_id === 'number' || typeof payload?.submission_id === 'string')
    attributes[ATTRIBUTES.submissionId] = payload.submission_id;
  return attributes;
}

/** Runs `fn` in a new active span; an error ends it with status ERROR and is rethrown. */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export function failSpan(span: Span, error: unknown, reason?: string): void {
  if (error instanceof Error) span.recordException(error);
  if (reason) span.setAttribute(ATTRIBUTES.rejection, reason);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: reason ?? (error instanceof Error ? error.message : String(error)),
  });
}

/** The request's span: the root of the delivery's trace (or a child of the caller's, if any). */
export function traceReceive<T>(queue: string, fn: (span: Span) => Promise<T>): Promise<T> {
  return inSpan(SPANS.receive, { kind: SpanKind.SERVER, attributes: { [ATTRIBUTES.queue]: queue } }, fn);
}

/**
 * Verification; on success the form and submission ids go on it and on the receive span. A
 * verifier that answers a rejection as a value (`{ ok: false, reason }`) ends it as an error too.
 */
export async function traceVerify<T>(verify: () => Promise<T>): Promise<T> {
  const receive = trace.getActiveSpan();
  return inSpan(SPANS.verify, {}, async (span) => {
    const verified = await verify();
    const outcome = verified as { ok?: boolean; reason?: string; payload?: DeliveryIds };
    if (outcome.ok === false) {
      failSpan(span, undefined, outcome.reason);
      return verified;
    }
    const ids = payloadAttributes(outcome.payload);
    span.setAttributes(ids);
    receive?.setAttributes(ids);
    return verified;
  });
}

/** Marks the receive span (active now) as rejected, with webhook-verify's reason. */
export function markRejected(reason: string, error?: unknown): void {
  const span = trace.getActiveSpan();
  if (span) failSpan(span, error, reason);
}

/** Storing the delivery; BullMQ's own `add` span (and the context it stores with the job) is its child. */
export function traceEnqueue<T>(queue: string, deliveryId: string, add: () => Promise<T>): Promise<T> {
  trace.getActiveSpan()?.setAttribute(ATTRIBUTES.deliveryId, deliveryId);
  return inSpan(
    SPANS.enqueue,
    { kind: SpanKind.PRODUCER, attributes: { [ATTRIBUTES.queue]: queue, [ATTRIBUTES.deliveryId]: deliveryId } },
    add,
  );
}

/** One handler run, inside BullMQ's `process` span (which continues the receive's trace). */
export function traceHandle<T>(
  queue: string,
  deliveryId: string,
  payload: DeliveryIds,
  attempt: number,
  handle: () => Promise<T>,
): Promise<T> {
  const attributes = {
    [ATTRIBUTES.queue]: queue,
    [ATTRIBUTES.deliveryId]: deliveryId,
    ...payloadAttributes(payload),
    [ATTRIBUTES.attempt]: attempt,
  };
  trace.getActiveSpan()?.setAttributes(attributes);
  return inSpan(SPANS.handle, { attributes }, handle);
}

/** For the Queue of a receiver: BullMQ's `add` span, and the trace context stored with each job. */
export function queueTelemetry(): Telemetry {
  return new BullMQOtel({ tracerName: 'bullmq' });
}

const NOT_TRACED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * For a Worker: BullMQ's `process` span only, parented by the context stored with the job. Its
 * other spans (a `getNextJob` for every poll) would each be a trace of their own, about no delivery.
 */
export function workerTelemetry(): Telemetry {
  const otel = new BullMQOtel({ tracerName: 'bullmq' });
  return {
    contextManager: otel.contextManager,
    tracer: {
      startSpan: (name, options, parent) =>
        name.startsWith('process ') ? otel.tracer.startSpan(name, options, parent) : new BullMQOTelSpan(NOT_TRACED),
    },
  };
}
