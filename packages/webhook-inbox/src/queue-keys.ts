// Where a queue's keys live: under a prefix that is a Redis Cluster hash tag of the queue's name,
// as BullMQ documents for Cluster (`prefix: '{emails}'`), so every key of the queue, BullMQ's and
// the inbox's own (deduplication window, kept bodies, health probe), hashes to one slot, and two
// queues may sit on two masters. On a single node or behind Sentinel it is only a name.
import { InboxError } from './errors.js';

/**
 * The BullMQ `prefix` of an inbox queue: `{<queue>}`. Pass it to any BullMQ `Queue`, `Worker` or
 * dashboard you open on the inbox's queue: `new Queue(name, { prefix: inboxQueuePrefix(name) })`.
 */
export function inboxQueuePrefix(queue: string): string {
  // A brace in the name would end the hash tag early or leave it empty: the keys would spread.
  if (typeof queue !== 'string' || queue === '' || /[{}:]/.test(queue)) {
    throw new InboxError(
      'invalid_option',
      `\`queue\` must be a non-empty name without \`{\`, \`}\` or \`:\` (got ${JSON.stringify(queue) ?? String(queue)}): the inbox wraps it in braces as the Redis Cluster hash tag of the queue's keys.`,
      { context: { option: 'queue' } },
    );
  }
  return `{${queue}}`;
}
