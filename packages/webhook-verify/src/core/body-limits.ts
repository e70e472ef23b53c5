// How much of an unverified body a receiver holds, and for how long: the per-request limit, the
// read deadline, and the budget of bytes held at once across requests. Checked where given.
import { integerOption } from '@forms-api/internal/option-names';
import { WEBHOOK_DELIVERY } from '@forms-api/types';
import { WebhookVerifyError } from './errors.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How long the service waits for a receiver's answer to a delivery, sent once and never retried (the spec's `x-delivery`). */
export const SERVICE_WEBHOOK_TIMEOUT_MS = WEBHOOK_DELIVERY.timeoutSeconds * 1000;
/** A body still arriving after the service gave up on its delivery is not one of its deliveries. */
export const DEFAULT_BODY_TIMEOUT_MS = SERVICE_WEBHOOK_TIMEOUT_MS;
/** 32 bodies at the default limit. */
export const DEFAULT_MAX_PENDING_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Bytes of unverified bodies held at once, counted as they arrive and given back when a read ends.
 * Memory is a process's, so adapters share one budget per process unless given their own.
 */
export interface BodyBudget {
  readonly maxBytes: number;
  /** Bytes held now. */
  readonly heldBytes: number;
  /** Takes `bytes` from the budget: false (and nothing taken) when they do not fit. */
  tryReserve(bytes: number): boolean;
  release(bytes: number): void;
}

export function createBodyBudget(maxBytes: number): BodyBudget {
  integerOption(WebhookVerifyError, maxBytes, 'maxPendingBodyBytes', { unit: 'bytes', hint: unsetHint('32 MiB') });
  let held = 0;
  return {
    maxBytes,
    get heldBytes() {
      return held;
    },
    tryReserve(bytes) {
      if (held + bytes > maxBytes) return false;
      held += bytes;
      return true;
    },
    release(bytes) {
      held = Math.max(0, held - bytes);
    },
  };
}

/** The budget of every adapter given no `bodyBudget` (one per loaded copy of this package). */
export const processBodyBudget: BodyBudget = createBodyBudget(DEFAULT_MAX_PENDING_BODY_BYTES);

export interface BodyLimitOptions {
  /** Largest body accepted, in bytes (answered 413). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Time allowed to receive the whole body once the headers arrived, in ms (answered 408, connection closed). Default 5000. */
  bodyTimeoutMs?: number;
  /**
   * Unverified bytes held at once across requests (answered 503 with Retry-After when over). Default:
   * one budget of 32 MiB shared by every adapter of the process; `createBodyBudget(bytes)` for your own.
   */
  bodyBudget?: BodyBudget;
}

/** The limits of one body read. */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
  budget: BodyBudget;
}

export function checkBodyLimits(options: BodyLimitOptions): BodyLimits {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  integerOption(WebhookVerifyError, maxBytes, 'maxBodyBytes', { unit: 'bytes', hint: unsetHint('1 MiB') });
  const timeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  integerOption(WebhookVerifyError, timeoutMs, 'bodyTimeoutMs', {
    unit: 'milliseconds',
    hint: unsetHint(String(DEFAULT_BODY_TIMEOUT_MS)),
  });
  const budget = options.bodyBudget ?? processBodyBudget;
  if (
    typeof budget !== 'object' ||
    budget === null ||
    typeof budget.tryReserve !== 'function' ||
    typeof budget.release !== 'function'
  ) {
    throw new WebhookVerifyError(
      'invalid_option',
      '`bodyBudget` takes a budget made by `createBodyBudget(maxBytes)`; leave it out to share the process-wide 32 MiB budget.',
      { context: { option: 'bodyBudget' } },
    );
  }
  if (budget.maxBytes < maxBytes) {
    throw new WebhookVerifyError(
      'invalid_option',
      `\`bodyBudget\` holds ${budget.maxBytes} bytes, less than one body of \`maxBodyBytes\` (${maxBytes}): every such body would be refused. Give the budget at least \`maxBodyBytes\`.`,
      { context: { option: 'bodyBudget' } },
    );
  }
  return { maxBytes, timeoutMs, budget };
}

/** What to say of a malformed number: the usual cause, and the default it would have had. */
export function unsetHint(fallback: string): string {
  return `An unset environment variable read with Number() gives NaN. Leave it out for the default of ${fallback}.`;
}
