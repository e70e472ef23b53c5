// What every receive adapter answers once a delivery is verified: 202 when Redis has it, 503 when it
// could not be stored (so the service records an error event, never a false success), and the
// health check's 200/503. The adapters only translate these to their framework.
import { isUnavailable, type InboxError, type InboxErrorKind } from './errors.js';
import type { Inbox, InboxHealth } from './inbox.js';
import type { Answer } from './answer.js';
import type { VerifiedDelivery } from './delivery.js';

export type { Answer };

/**
 * What a 503 and a failing health check say to whoever calls them (the service, a load balancer,
 * possibly the public): the kind and a fixed sentence, never the error's own message, which may
 * carry the Redis address or a driver's text. Operators get the details from `onRedisError`.
 */
const PUBLIC_MESSAGE: Partial<Record<InboxErrorKind, string>> = {
  redis_unavailable:
    'The queue is unavailable, so the delivery was not stored. It was not accepted: send it again later.',
  redis_read_only:
    'The queue takes no writes now (its Redis is a read-only replica, as after a failover), so the delivery was not stored.',
  enqueue_timeout: 'The queue did not confirm the delivery in time, so it was not acknowledged.',
  replicas_unconfirmed:
    'The queue stored the delivery but not enough of its replicas confirmed it in time, so it was not acknowledged.',
  closing: 'This receiver is shutting down and takes no new deliveries.',
};

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/**
 * Stores the delivery and says how to answer. Anything but "stored" or "Redis cannot take it now"
 * is rethrown: it is a bug or a misconfiguration, for the framework's error handling.
 */
export async function answerDelivery(inbox: Inbox, delivery: VerifiedDelivery): Promise<Answer> {
  let answer: Answer;
  try {
    const { id } = await inbox.enqueue(delivery);
    answer = json(202, { status: 'queued', id });
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    const { kind } = error as InboxError;
    answer = json(503, { error: kind, message: PUBLIC_MESSAGE[kind] }, { 'retry-after': '1' });
  }
  // A receiver shutting down tells clients not to reuse the connection, so they move on at once.
  if (inbox.closing) answer.headers.connection = 'close';
  return answer;
}

/** Anything with a `health()`: an inbox (can it store deliveries?) or a worker (can it fetch jobs?). */
export interface HealthTarget {
  health(): Promise<InboxHealth>;
}

export async function answerHealth(target: HealthTarget): Promise<Answer> {
  const health = await target.health();
  return health.ok
    ? json(200, { status: 'ok', latency_ms: Math.round((health.latencyMs ?? 0) * 100) / 100 })
    : json(503, {
        status: 'unavailable',
        reason: health.reason,
        message: (health.reason && PUBLIC_MESSAGE[health.reason]) ?? health.message,
      });
}
