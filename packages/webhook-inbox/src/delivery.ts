// What a queued delivery is: its identity (derived from the signature, so the same signed bytes are
// the same job everywhere) and the exact form it takes in Redis and comes back to the handler.
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
  /** The job id: the same for every copy of the same signed delivery. Use it as an idempotency key. */
  id: string;
  payload: SubmissionCreatedPayload;
  /** The exact bytes the service signed. */
  rawBody: Uint8Array;
  /** The request headers as received (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** When a receiver accepted it. */
  receivedAt: Date;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** Runs allowed before the delivery stays in the failed set. */
  maxAttempts: number;
  /** Aborted when this run reaches the worker's `handlerTimeoutMs`: pass it to fetch and database calls. */
  signal: AbortSignal;
}

/** The job data in Redis. The body is base64 so any bytes (a BOM, invalid UTF-8) survive exactly. */
export interface StoredDelivery {
  v: 1;
  body: string;
  headers: Record<string, string>;
  receivedAt: number;
}

/**
 * `wh-` + SHA-256 of the signature. Derived from the signature, so it identifies the signed bytes;
 * hashed, so job ids printed by the CLI or in logs are not a replayable signature. (BullMQ ids may
 * not contain `:` nor be all digits; this has neither.)
 */
export function jobIdFor(signature: string): string {
  return `wh-${createHash('sha256').update(signature).digest('hex')}`;
}

export function storeDelivery(delivery: VerifiedDelivery, receivedAt: number): StoredDelivery {
  const bytes = delivery.rawBody;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return { v: 1, body, headers: { ...delivery.headers }, receivedAt };
}

const decoder = new TextDecoder();

/** Reads job data back; refuses anything this package did not write instead of guessing. */
export function readDelivery(data: unknown, jobId: string): { payload: SubmissionCreatedPayload; rawBody: Buffer; headers: Record<string, string>; receivedAt: Date } {
  const stored = data as Partial<StoredDelivery> | null;
  if (!stored || stored.v !== 1 || typeof stored.body !== 'string' || typeof stored.receivedAt !== 'number' || typeof stored.headers !== 'object' || stored.headers === null) {
    throw new InboxError('corrupt_job', `Job ${jobId} does not hold a delivery written by @forms-api/webhook-inbox. Is another producer adding jobs to this queue? Give the inbox its own \`queue\` name.`, {
      context: { jobId },
    });
  }
  const rawBody = Buffer.from(stored.body, 'base64');
  let payload: SubmissionCreatedPayload;
  try {
    payload = JSON.parse(decoder.decode(rawBody)) as SubmissionCreatedPayload;
  } catch (cause) {
    throw new InboxError('corrupt_job', `Job ${jobId} holds a body that is not JSON, though receivers only queue verified JSON. The job data was changed after it was queued.`, {
      context: { jobId },
      cause,
    });
  }
  return { payload, rawBody, headers: stored.headers, receivedAt: new Date(stored.receivedAt) };
}

/** Node's header object (arrays for repeated headers) as plain strings. */
export function flattenHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return flat;
}
