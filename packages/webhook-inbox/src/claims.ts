// Who brought a submission first: one Redis key per submission, `<prefix>:submission:<form>:<id>`
// under the queue's hash tag (one slot with the queue, on a Cluster too), holding the id of the job
// that claimed it. Receivers claim as they store a webhook, the reconciler before it queues a
// submission nobody claimed, and the worker again as it runs a job (a claim lost to a crash
// between storing and claiming is taken then), so the handler knows a first delivery from a later one.
import type { RedisClient } from './connection.js';

export function claimKey(prefix: string, submissionKey: string): string {
  return `${prefix}:submission:${submissionKey}`;
}

/**
 * Claims the submission for `owner` unless someone holds it, for `ttlMs`; resolves to the holder
 * after the attempt (`owner` when it won, or when it already held it).
 */
export async function claimSubmission(
  client: RedisClient,
  key: string,
  owner: string,
  ttlMs: number,
  /** A hash field (same hash tag as `key`) counted up in the same step when `owner` holds the claim after it. */
  count?: { key: string; field: string },
): Promise<string> {
  if (count) {
    // One script, so a claim is never taken without being counted, whatever fails afterwards.
    const holder = await client.eval(CLAIM_AND_COUNT, 2, key, count.key, owner, String(ttlMs), count.field);
    return typeof holder === 'string' ? holder : owner;
  }
  const replies = await client.multi().set(key, owner, 'PX', ttlMs, 'NX').get(key).exec();
  const [setReply, getReply] = replies ?? [];
  if (setReply?.[0]) throw setReply[0];
  if (getReply?.[0]) throw getReply[0];
  return typeof getReply?.[1] === 'string' ? getReply[1] : owner;
}

const CLAIM_AND_COUNT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('HINCRBY', KEYS[2], ARGV[3], 1) end
return holder`;

/** Which of these submission keys someone has claimed, in order. */
export async function claimed(client: RedisClient, keys: readonly string[]): Promise<boolean[]> {
  if (keys.length === 0) return [];
  const pipeline = client.pipeline();
  for (const key of keys) pipeline.exists(key);
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, count]) => {
    if (error) throw error;
    return Number(count) > 0;
  });
}
