/**
 * The Lua scripts the Redis store runs: each a step that must be atomic across every mock on the
 * server (Redis runs a script with nothing else in between). One table, as the engine's other
 * concepts are: the store names a script and gives its keys and arguments.
 *
 * Numbers that can grow past 14 digits (balances, counts) change here only by HINCRBY, exact in
 * Redis's 64-bit integers, or are written as %d; Lua's own printing of numbers (%.14g) is never
 * what is stored. (The control API's changes write them from JavaScript, exact up to 2^53.)
 * The plan rules come in as arguments, read from the contract's plan table by the caller:
 * no plan number is written here, and the metering decision is generated from the engine's table.
 */
import { meteringTable, type MeterRow } from '@investor-graph/engine/adapter';
import { bucketLua } from '@investor-graph/engine/adapter';
import { incidentScripts } from './incident-scripts.ts';
import { journalScripts } from './journal-scripts.ts';

/** Key `f` of a record hash is '' when null (KeyRecord's nulls). */
const record = `
local function num(v) if v == false or v == nil or v == '' then return nil end return tonumber(v) end
`;

/**
 * The metering decision table (the engine's stores/metering-table.ts) as Lua: one branch a row,
 * in its order, setting the refusal ('' when admitted) and what the outcome says the call cost.
 * Generated, so the table is written once; the facts it reads are the script's locals of the same names.
 */
export function meteringLua(table: readonly MeterRow[] = meteringTable): string {
  const branches = table.map((row, i) => {
    const when = Object.entries(row.when).map(([fact, value]) => (value ? fact : `not ${fact}`));
    const then = `then refusal, cost = '${row.refusal ?? ''}', ${row.cost === 'price' ? 'price' : '0'}`;
    if (when.length) return `${i ? 'elseif' : 'if'} ${when.join(' and ')} ${then}`;
    if (i !== table.length - 1 || i === 0) throw new Error('[investor-graph mock] only the last row fits every call');
    return `else ${then.slice('then '.length)}`;
  });
  return `local refusal, cost\n${branches.join('\n')}\nend`;
}

/**
 * Admits and charges one call: reads the key as stored into the table's facts (metering-table.ts
 * readCall, the same reading: the store-contract suite runs every row on this store), decides by
 * the generated table, and keeps what an admitted call changes. KEYS: record, charge. ARGV: now,
 * counted (1/0), rows (-1: none), this month's start and end, the plan's calls limit (-1: none),
 * monthly (1/0), trial (1/0), pay as you go (1/0), minimum rows a call, how long the charge is
 * remembered (ms). Returns { refusal or '', cost, the record's fields }; { 'missing' } or { 'seen' } otherwise.
 */
const admitAndCharge = `${record}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'seen'} end
local r = redis.call('HMGET', KEYS[1], 'revoked', 'expires', 'used', 'pend', 'balance')
local now, counted, rows = tonumber(ARGV[1]), ARGV[2] == '1', tonumber(ARGV[3])
local limit, monthly, trial, payg = tonumber(ARGV[6]), ARGV[7] == '1', ARGV[8] == '1', ARGV[9] == '1'
local rolled = counted and monthly and num(r[4]) ~= nil and now >= num(r[4])
local used = tonumber(r[3])
if rolled then used = 0 end
local price = 0
if payg and counted and rows >= 0 then price = math.max(rows, tonumber(ARGV[10])) end
local revoked = num(r[1]) ~= nil
local ended = num(r[2]) ~= nil and now >= num(r[2])
local usedUp = limit >= 0 and used >= limit
local short = payg and price > (num(r[5]) or 0)
${meteringLua()}
if refusal == '' then
  -- The balance first: a script that fails midway keeps what it wrote, and a count without its
  -- charge would be worse than neither. Only a price above 0: Lua prints -0 as '-0', which HINCRBY refuses.
  if payg and price > 0 then redis.call('HINCRBY', KEYS[1], 'balance', string.format('%d', -price)) end
  if rolled then redis.call('HSET', KEYS[1], 'used', '0', 'pstart', ARGV[4], 'pend', ARGV[5]) end
  if counted then redis.call('HINCRBY', KEYS[1], 'used', 1) end
  redis.call('HINCRBY', KEYS[1], 'v', 1)
  redis.call('SET', KEYS[2], 'c|' .. string.format('%d', price) .. '|' .. (counted and '1' or '0'), 'PX', ARGV[11])
end
return {refusal, cost, redis.call('HGETALL', KEYS[1])}
`;

/**
 * Takes back a charge by its id, once: what it counted and charged, as the charge itself recorded.
 * A charge not (yet) there is marked void, so it is never applied later. KEYS: record, charge.
 * ARGV: how long the mark is kept (ms). Returns 1 when something was taken back.
 */
const voidCharge = `
local c = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], 'void', 'PX', ARGV[1])
if not c or string.sub(c, 1, 2) ~= 'c|' or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local cost, counted = string.match(c, '^c|(%d+)|(%d)$')
if not cost then return 0 end
if counted == '1' and tonumber(redis.call('HGET', KEYS[1], 'used')) > 0 then
  redis.call('HINCRBY', KEYS[1], 'used', -1)
end
if redis.call('HGET', KEYS[1], 'plan') == 'payg' then redis.call('HINCRBY', KEYS[1], 'balance', cost) end
redis.call('HINCRBY', KEYS[1], 'v', 1)
return 1
`;

/** The record a key's hash points at. KEYS: hash index. ARGV: the records' key prefix. */
const byHash = `
local id = redis.call('GET', KEYS[1])
if not id then return false end
return redis.call('HGETALL', ARGV[1] .. id)
`;

/**
 * Adds a key unless its hash is there. KEYS: hash index, record, list, sequence, trials by end.
 * ARGV: key id, a trial's end ('' for other plans), ms to keep it in real time ('': for ever),
 * then the record's fields and values. Returns 1 when added.
 */
const insert = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[5], ARGV[2], ARGV[1]) end
if ARGV[3] ~= '' then for i = 1, 2 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end end
return 1
`;

/**
 * Takes back a trial issued whose answer never reached its client (so no one holds its key): gone,
 * with its indexes, unless it has made a call. KEYS: record, hash index, e-mail index, list,
 * trials by end. ARGV: the key id. Returns 1 when taken back.
 */
const voidTrial = `
local used = redis.call('HGET', KEYS[1], 'used')
if used and tonumber(used) > 0 then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
return 1
`;

/**
 * Issues a trial (metering-table.ts liveTrial, the same reading of a live trial): refused while the e-mail hash has a
 * live one; counted against the minute's cap (server time, so every mock shares one window); added
 * with an expiry in Redis too. KEYS: e-mail index, hash index, record, list, sequence, trials by
 * end, the cap's window. ARGV: now, the trial's calls limit, cap a minute (-1: none), ms to keep
 * (real time), the records' key prefix, key id, its end, then the record's fields and values.
 * Returns 'inserted', 'live' or { 'wait', seconds }.
 */
const insertTrial = `${record}
local now, limit, cap, keep = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local live = redis.call('GET', KEYS[1])
if live then
  local r = redis.call('HMGET', ARGV[5] .. live, 'revoked', 'expires', 'used')
  if r[3] and not num(r[1]) and (not num(r[2]) or now < num(r[2])) and tonumber(r[3]) < limit then return 'live' end
end
if cap >= 0 then
  local t = redis.call('TIME')
  local ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local w = redis.call('HMGET', KEYS[7], 'start', 'count')
  local start, count = num(w[1]), num(w[2]) or 0
  if not start or ms - start >= 60000 then start, count = ms, 0 end
  if count >= cap then return {'wait', math.max(1, math.ceil((start + 60000 - ms) / 1000))} end
  redis.call('HSET', KEYS[7], 'start', string.format('%d', start), 'count', count + 1)
  redis.call('PEXPIRE', KEYS[7], 120000)
end
if redis.call('SET', KEYS[2], ARGV[6], 'NX') == false then return 'live' end
redis.call('HSET', KEYS[3], unpack(ARGV, 8))
redis.call('SET', KEYS[1], ARGV[6])
redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[5]), ARGV[6])
redis.call('ZADD', KEYS[6], ARGV[7], ARGV[6])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], keep) end
return 'inserted'
`;

/**
 * Writes a changed record if no one changed it since it was read (its version `v`). KEYS: record.
 * ARGV: the version read, then fields and values. Returns 1 when written, 0 when it changed meanwhile.
 */
const updateIfUnchanged = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('HINCRBY', KEYS[1], 'v', 1)
return 1
`;

/**
 * Sets a value if it is still the one read. KEYS: the value.
 * ARGV: read ('' with ARGV[3] '0': none), new, had one (1/0).
 */
const setIfUnchanged = `
local v = redis.call('GET', KEYS[1])
if (ARGV[3] == '1' and v ~= ARGV[1]) or (ARGV[3] == '0' and v) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/**
 * Drops trial keys that ended before a time, with their indexes; at most 500 a call. KEYS: trials
 * by end, list. ARGV: the time, the records' prefix, the hash index's prefix, the e-mail index's
 * prefix. Returns how many went.
 */
const pruneTrials = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, 500)
for _, id in ipairs(ids) do
  local r = redis.call('HMGET', ARGV[2] .. id, 'h', 'email')
  if r[1] then redis.call('DEL', ARGV[3] .. r[1]) end
  if r[2] and redis.call('GET', ARGV[4] .. r[2]) == id then redis.call('DEL', ARGV[4] .. r[2]) end
  redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
return #ids
`;

/**
 * A token bucket on the server's time, so every mock shares one bucket and one clock for it: its
 * arithmetic generated from the engine's stores/token-bucket.ts (`bucketLua`), which every store's
 * buckets run. KEYS: the bucket. ARGV: capacity, refill a second, take (1), only look (0) or give
 * one back (-1). Returns { wait seconds, tokens left (text) }; a bucket not touched for as long as
 * it takes to refill is full again, so it expires then.
 */
const takeToken = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local capacity, perSecond, move = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if not b[1] and move == 0 then return {0, tostring(capacity)} end
local tokens = tonumber(b[1]) or capacity
local elapsedMs = now - (tonumber(b[2]) or now)
${bucketLua()}
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', left), 'at', string.format('%.3f', now))
redis.call('PEXPIRE', KEYS[1], fullAfterMs)
return {wait, string.format('%.6f', left)}
`;

export const scripts = {
  admitAndCharge,
  voidCharge,
  byHash,
  insert,
  voidTrial,
  insertTrial,
  updateIfUnchanged,
  setIfUnchanged,
  pruneTrials,
  takeToken,
  ...journalScripts,
  ...incidentScripts,
} as const;

export type ScriptName = keyof typeof scripts;
