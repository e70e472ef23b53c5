// What a queued delivery is: its identity (derived from the signed bytes, so the same delivery is the
// same job everywhere, under any of the secrets being rotated) and the exact form it takes in Redis
// and comes back to the handler.
import { createHash } from 'node:crypto';
import type { SubmissionCreatedPayload } from '@forms-api/webhook-verify';
import { normaliseListedSubmission, type FormFields, type NormalisedSubmission } from '@forms-api/client/submissions';
import { InboxError } from './errors.js';

/** A request that passed verification: the signed bytes, their signature and the request headers. */
export interface VerifiedDelivery {
  rawBody: Uint8Array;
  /** The `X-Webhook-Signature` value that verified (`sha256=<hex>`). */
  signature: string;
  headers: Readonly<Record<string, string>>;
  /**
   * `<form_id>:<submission_id>` of the verified payload (null when it lacks either), as the
   * adapters give it from the payload webhook-verify decoded; left out, `enqueue` reads the body.
   */
  submissionKey?: string | null;
}

/** What every delivery gives the handler, whatever brought it. */
interface DeliveryBase {
  /**
   * The delivery's own id (the job id). A webhook's is the same for every copy of its bytes within
   * the deduplication window; a reconciled one is `rc-<form_id>-<submission_id>`. For logs, the CLI
   * (`show`, `retry`) and effects that belong to this one delivery. Not the key of the submission:
   * the service sends `submission.created` again after each update of a submission, with other
   * bytes, hence another id.
   */
  id: string;
  /**
   * `<form_id>:<submission_id>`: the same for every delivery of the same submission, the re-sends
   * after an update and a reconciled one included. Use it as the idempotency key of writes that
   * must happen once per submission (upsert on it: a later delivery carries newer answers).
   */
  submissionKey: string | null;
  /**
   * False when a delivery of this submission was stored before this one (by a receiver or the
   * reconciler, within the claim window): a re-send after an update, or a webhook that arrived
   * after the reconciler had taken its submission.
   */
  firstOfSubmission: boolean;
  /** When a receiver accepted it, or the reconciler queued it. */
  receivedAt: Date;
  /** 1 for the first run, then one more for each run after it: a retry, or a run taken over after its worker died. */
  attempt: number;
  /** Runs allowed before the delivery stays in the failed set. */
  maxAttempts: number;
  /** Aborted when this run reaches the worker's `handlerTimeoutMs`: pass it to fetch and database calls. */
  signal: AbortSignal;
}

/** A signed `submission.created` delivery that reached a receiver. */
export interface WebhookDelivery extends DeliveryBase {
  origin: 'webhook';
  /**
   * The submission in the one shape of `@forms-api/client/submissions`, the field names and types
   * taken from the payload itself. `null` only if the payload lacks either id or its `data`, which
   * the service's deliveries never do (`submissionKey` is then null too when an id is missing).
   */
  submission: NormalisedSubmission | null;
  payload: SubmissionCreatedPayload;
  /** The exact bytes the service signed. */
  rawBody: Uint8Array;
  /** The request headers as received (lower-case names). */
  headers: Readonly<Record<string, string>>;
}

/**
 * A submission the reconciler found in the form's list with no delivery stored for it (its
 * webhook failed or never came): no signed bytes, no headers, its answers as stored.
 */
export interface ReconciledDelivery extends DeliveryBase {
  origin: 'reconcile';
  submissionKey: string;
  submission: NormalisedSubmission;
  payload: null;
  rawBody: null;
  headers: null;
}

/** What the worker's handler receives: tell the two apart by `origin`. */
export type InboxDelivery = WebhookDelivery | ReconciledDelivery;

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

/** A submission as the list gives it (`@forms-api/types`' `Submission`). */
export type ListedSubmission = Parameters<typeof normaliseListedSubmission>[0];

/**
 * The job data of a reconciled submission: the listed item and its form's fields as the
 * reconciler read them, normalised again by the worker (one mechanism, and a changed job fails).
 */
export interface StoredReconciled {
  v: 1;
  origin: 'reconcile';
  listed: ListedSubmission;
  fields: Array<[string, { name: string; type: string }]>;
  receivedAt: number;
}

export function storeReconciled(listed: ListedSubmission, fields: FormFields, receivedAt: number): StoredReconciled {
  return { v: 1, origin: 'reconcile', listed, fields: [...fields].map(([id, f]) => [id, { ...f }]), receivedAt };
}

/** True for the data of a job the reconciler queued (then `readReconciled` reads it, not `readDelivery`). */
export function isReconciledJob(data: unknown): boolean {
  return (data as { origin?: unknown } | null)?.origin === 'reconcile';
}

export function readReconciled(data: unknown, jobId: string): { submission: NormalisedSubmission; receivedAt: Date } {
  const stored = data as Partial<StoredReconciled> | null;
  try {
    if (stored?.v !== 1 || typeof stored.receivedAt !== 'number' || !Array.isArray(stored.fields))
      throw new Error('not a reconciled submission');
    const submission = normaliseListedSubmission(stored.listed!, new Map(stored.fields), 'reconcile');
    return { submission, receivedAt: new Date(stored.receivedAt) };
  } catch (cause) {
    throw new InboxError(
      'corrupt_job',
      `Job ${jobId} says the reconciler queued it but holds no submission it could have written (${(cause as Error).message}). Is another producer adding jobs to this queue?`,
      { context: { jobId }, cause },
    );
  }
}

/** `<form_id>:<submission_id>` of a payload, or null when either is missing. */
export function submissionKeyFor(payload: { form_id?: unknown; submission_id?: unknown }): string | null {
  const part = (value: unknown) =>
    typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : undefined;
  const formId = part(payload.form_id);
  const submissionId = part(payload.submission_id);
  return formId === undefined || submissionId === undefined ? null : `${formId}:${submissionId}`;
}

/** The submission key of verified bytes, or null when they are not an object with both ids. */
export function submissionKeyOfBody(rawBody: Uint8Array): string | null {
  try {
    const payload: unknown = JSON.parse(decoder.decode(rawBody));
    return typeof payload === 'object' && payload !== null ? submissionKeyFor(payload) : null;
  } catch {
    return null;
  }
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
