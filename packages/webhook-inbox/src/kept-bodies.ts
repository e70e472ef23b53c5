// The byte budget for the raw bodies of retained completed jobs: a completed job keeps its body (so
// `inbox replay --status completed` can run it again) while the bodies kept across the queue stay
// under the budget; beyond it the oldest kept bodies are dropped first. One Lua script, so workers
// completing jobs at the same time keep one consistent account.
import type { RedisClient } from './connection.js';

// KEYS: 1 kept ids scored by completion time, 2 hash id -> raw bytes, 3 total raw bytes kept,
//       4 BullMQ's completed set. ARGV: 1 job key prefix, 2 job id, 3 now (ms), 4 budget (bytes).
// Returns the ids whose bodies were dropped by this call.
const KEEP_BODY_SCRIPT = `
local prefix, id, now, budget = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local function rawSize(b64)
  local pad = 0
  if string.sub(b64, -2) == '==' then pad = 2 elseif string.sub(b64, -1) == '=' then pad = 1 end
  return math.floor(#b64 / 4) * 3 - pad
end
local function forget(member)
  local size = tonumber(redis.call('HGET', KEYS[2], member) or '0')
  redis.call('ZREM', KEYS[1], member)
  redis.call('HDEL', KEYS[2], member)
  redis.call('DECRBY', KEYS[3], size)
end
-- Drops the body of a job that is still completed: its headers stay, its size goes to \`bytes\`.
local function strip(member)
  if not redis.call('ZSCORE', KEYS[4], member) then return false end
  local raw = redis.call('HGET', prefix .. member, 'data')
  if not raw then return false end
  local ok, data = pcall(cjson.decode, raw)
  if not ok or type(data) ~= 'table' or type(data.body) ~= 'string' then return false end
  data.bytes = rawSize(data.body)
  data.body = cjson.null
  redis.call('HSET', prefix .. member, 'data', cjson.encode(data))
  return true
end
local dropped = {}
-- A job completing again (replayed, retried) is counted once, at its new time.
if redis.call('ZSCORE', KEYS[1], id) then forget(id) end
local size = nil
if redis.call('ZSCORE', KEYS[4], id) then
  local raw = redis.call('HGET', prefix .. id, 'data')
  local ok, data = pcall(cjson.decode, raw or '')
  if ok and type(data) == 'table' and type(data.body) == 'string' then size = rawSize(data.body) end
end
if size then
  if size > budget then
    -- Larger than the whole budget: dropping older bodies could not make room for it.
    if strip(id) then table.insert(dropped, id) end
  else
    redis.call('ZADD', KEYS[1], now, id)
    redis.call('HSET', KEYS[2], id, size)
    redis.call('INCRBY', KEYS[3], size)
  end
end
-- Jobs that left the completed set (removed by retention, replayed) hold nothing here any more.
while true do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not oldest or redis.call('ZSCORE', KEYS[4], oldest) then break end
  forget(oldest)
end
while tonumber(redis.call('GET', KEYS[3]) or '0') > budget do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not oldest then redis.call('SET', KEYS[3], 0) break end
  if strip(oldest) then table.insert(dropped, oldest) end
  forget(oldest)
end
return dropped
`;

/**
 * Accounts for the body of a job that just completed and trims the kept bodies of the queue to
 * `budgetBytes` (raw bytes), oldest first. `keyFor` is BullMQ's key of the queue (`worker.toKey`).
 * Resolves to the ids whose bodies were dropped.
 */
export async function keepCompletedBody(
  client: RedisClient,
  keyFor: (name: string) => string,
  jobId: string,
  budgetBytes: number,
): Promise<string[]> {
  const keys = [keyFor('kept-bodies'), keyFor('kept-bodies:bytes'), keyFor('kept-bodies:total'), keyFor('completed')];
  return (await client.eval(
    KEEP_BODY_SCRIPT,
    keys.length,
    ...keys,
    keyFor(''),
    jobId,
    Date.now(),
    budgetBytes,
  )) as string[];
}
