// What a queued delivery is: its identity (derived from the signed bytes, so the same delivery is the
// same job everywhere, under any of the secrets being rotated) and the exact form it takes in Redis
// and comes back to the handler.
import { createHash } from 'node:crypto';
import type { SubmissionCreatedPayload } from '@forms-api/webhook-verify';
import { InboxError } from './errors.js';

/** A request that passed verification: the signed bytes, their signature and the request headers. */
export interface VerifiedDelivery {
  rawBody: Uint8Array;
  /** The `X-Webhook-Signature` value that verified (`sha256=<hex>`). */
  signature: string;
  headers: Readonly<Record<string, string>>;
}

/** What the worker's handler receives. */
export interface InboxDelivery {
  /**
   * The delivery's own id (the job id): the same for every copy of these bytes within the
   * deduplication window. For logs, the CLI (`show`, `retry`) and effects that belong to this one
   * delivery. Not the key of the submission: the service sends `submission.created` again after
   * each update of a submission, with other bytes, hence another id.
   */
  id: string;
  /**
   * The submission this delivery is about, `<form_id>:<submission_id>`: the same for every delivery
   * of the same submission, including the re-sends after an update. Use it as the idempotency key
   * of writes that must happen once per submission (upsert on it: a later delivery carries the
   * submission's newer answers). `null` only if the payload lacks either id, which the service's
   * deliveries of stored submissions never do.
   */
  submissionKey: string | null;
  payload: SubmissionCreatedPayload;
  /** The exact bytes the service signed. */
  rawBody: Uint8Array;
  /** The request headers as received (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** When a receiver accepted it. */
  receivedAt: Date;
  /** 1 for the first run, then one more for each run after it: a retry, or a run taken over after its worker died. */
  attempt: number;
  /** Runs allowed before the delivery stays in the failed set. */
  maxAttempts: number;
  /** Aborted when this run reaches the worker's `handlerTimeoutMs`: pass it to fetch and database calls. */
  signal: AbortSignal;
}

/**
 * The job data in Redis. The body is base64 so any bytes (a BOM, invalid UTF-8) survive exactly.
 * A completed job keeps its body within the worker's `completedBodyBytes` budget; beyond it the
 * oldest kept bodies are dropped (`body: null`, the size kept in `bytes`) by kept-bodies.ts.
 */
export interface StoredDelivery {
  v: 1;
  body: string | null;
  headers: Record<string, string>;
  receivedAt: number;
  bytes?: number;
}

/**
 * `wh-` + SHA-256 of the signed bytes: the delivery's identity, and the id of its job. From the
 * bytes, not the signature: while a secret is rotated the service may sign the same bytes under
 * each secret, and that is still one delivery. Hashed, so ids in logs carry no payload. (BullMQ ids
 * may not contain `:` nor be all digits; this has neither.) A copy arriving after the
 * deduplication window, while the first job is still retained, becomes a job `<id>-<time>`.
 */
export function jobIdFor(rawBody: Uint8Array | string): string {
  return `wh-${createHash('sha256').update(rawBody).digest('hex')}`;
}

export function storeDelivery(delivery: VerifiedDelivery, receivedAt: number): StoredDelivery {
  const bytes = delivery.rawBody;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return { v: 1, body, headers: { ...delivery.headers }, receivedAt };
}

const decoder = new TextDecoder();

/** Reads job data back; refuses anything this package did not write instead of guessing. */
export function readDelivery(
  data: unknown,
  jobId: string,
): { payload: SubmissionCreatedPayload; rawBody: Buffer; headers: Record<string, string>; receivedAt: Date } {
  const stored = data as Partial<StoredDelivery> | null;
  const unreadable = (data as { unreadable?: unknown } | null)?.unreadable;
  if (typeof unreadable === 'string') {
    throw new InboxError(
      'corrupt_job',
      `Job ${jobId} holds data that is not JSON (${unreadable}): it was not written by @forms-api/webhook-inbox, or was changed in Redis. Is another producer adding jobs to this queue?`,
      { context: { jobId } },
    );
  }
  if (stored?.v === 1 && stored.body === null) {
    throw new InboxError(
      'body_not_kept',
      `Job ${jobId} completed and its body is no longer kept: completed jobs keep their bodies only within the workers' \`completedBodyBytes\` budget, the oldest dropped first; its headers and size remain.`,
      { context: { jobId } },
    );
  }
  if (
    !stored ||
    stored.v !== 1 ||
    typeof stored.body !== 'string' ||
    typeof stored.receivedAt !== 'number' ||
    typeof stored.headers !== 'object' ||
    stored.headers === null
  ) {
    throw new InboxError(
      'corrupt_job',
      `Job ${jobId} does not hold a delivery written by @forms-api/webhook-inbox. Is another producer adding jobs to this queue? Give the inbox its own \`queue\` name.`,
      {
        context: { jobId },
      },
    );
  }
  const rawBody = Buffer.from(stored.body, 'base64');
  let payload: unknown;
  try {
    payload = JSON.parse(decoder.decode(rawBody));
  } catch (cause) {
    throw new InboxError(
      'corrupt_job',
      `Job ${jobId} holds a body that is not JSON, though receivers only queue verified JSON. The job data was changed after it was queued.`,
      {
        context: { jobId },
        cause,
      },
    );
  }
  // Receivers only queue verified objects; `null`, an array or a scalar means the data was changed.
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new InboxError(
      'corrupt_job',
      `Job ${jobId} holds a body that is ${payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a ${typeof payload}`}, not a submission.created object, though receivers only queue verified payloads. The job data was changed after it was queued.`,
      {
        context: { jobId },
      },
    );
  }
  return {
    payload: payload as SubmissionCreatedPayload,
    rawBody,
    headers: stored.headers,
    receivedAt: new Date(stored.receivedAt),
  };
}

/** `<form_id>:<submission_id>` of a payload, or null when either is missing. */
export function submissionKeyFor(payload: { form_id?: unknown; submission_id?: unknown }): string | null {
  const part = (value: unknown) =>
    typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : undefined;
  const formId = part(payload.form_id);
  const submissionId = part(payload.submission_id);
  return formId === undefined || submissionId === undefined ? null : `${formId}:${submissionId}`;
}

/** Node's header object (arrays for repeated headers) as plain strings. */
export function flattenHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return flat;
}
