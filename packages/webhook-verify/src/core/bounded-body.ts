// Reads a body within the receiver's limits through the one bounded reader (@forms-api/internal),
// and turns each way a read stops into the WebhookVerifyError the adapters answer with.
import { readBounded, type BoundedReadFailure, type ChunkSource } from '@forms-api/internal/bounded-body';
import type { BodyLimits } from './body-limits.js';
import { verificationError, WebhookVerifyError } from './errors.js';

/** The whole body, or a `body_too_large`, `body_timeout`, `receiver_busy` or `unreadable_body` error. */
export async function readWithinLimits(source: ChunkSource, limits: BodyLimits): Promise<Uint8Array> {
  const { maxBytes, timeoutMs, budget } = limits;
  const read = await readBounded(source, { limit: maxBytes, overLimit: 'fail', timeoutMs, reservation: budget });
  if (read.ok) return read.value.bytes;
  throw errorOf(read.error, limits);
}

function errorOf(failure: BoundedReadFailure, { maxBytes, timeoutMs }: BodyLimits): WebhookVerifyError {
  switch (failure.kind) {
    case 'too_large':
      return verificationError('body_too_large', { context: { limit: maxBytes } });
    case 'timeout':
      return verificationError('body_timeout', { context: { timeoutMs } });
    case 'reservation_refused':
      return verificationError('receiver_busy', { context: { retryAfterSeconds: Math.ceil(timeoutMs / 1000) } });
    case 'unreadable':
      return verificationError('unreadable_body', { cause: failure.cause });
    case 'aborted':
      // No signal is given to the reader: here for the switch to be exhaustive.
      return verificationError('unreadable_body', { cause: failure.reason });
  }
}
