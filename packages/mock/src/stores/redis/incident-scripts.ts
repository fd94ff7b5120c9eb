/**
 * The incidents' scripts (incidents.ts). On the server: `incident:<id>` a hash (the input as JSON,
 * seq, created_at, ends_at, until, calls_left, hits; '' for none), expiring by itself at its
 * duration's end; `incidents` their ids by seq (a sorted set: oldest first); `incidents:seq` the
 * last seq given; `incidents:version` moved by every change of which incidents are in force, so a
 * replica knows when what it holds is out of date by reading one number. KEYS are always
 * { the set, the seq, the version }; ARGV[1] the records' prefix (`<prefix>incident:`).
 */

/** Drops the ids whose records are gone (their duration over) or whose time on the simulated clock is past. */
const prune = `
local function live_ids(set, prefix, service_now)
  local ids = {}
  for _, id in ipairs(redis.call('ZRANGE', set, 0, -1)) do
    local u = redis.call('HGET', prefix .. id, 'until')
    if not u then
      redis.call('ZREM', set, id)
    elseif u ~= '' and service_now ~= '' and tonumber(service_now) >= tonumber(u) then
      redis.call('DEL', prefix .. id)
      redis.call('ZREM', set, id)
    else
      ids[#ids + 1] = id
    end
  end
  return ids
end
local fields = {'input', 'created_at', 'ends_at', 'calls_left', 'hits'}
`;

/**
 * Starts one unless `max` are in force. ARGV: prefix, id, input, calls, duration ms, until, service
 * now ('' for none of each), max. Returns { created_at, ends_at } by the server's clock, or false.
 */
const addIncident = `${prune}
if #live_ids(KEYS[1], ARGV[1], ARGV[7]) >= tonumber(ARGV[8]) then return false end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ends = ''
if ARGV[5] ~= '' then ends = now + tonumber(ARGV[5]) end
local seq = redis.call('INCR', KEYS[2])
local rec = ARGV[1] .. ARGV[2]
redis.call('HSET', rec, 'input', ARGV[3], 'seq', seq, 'created_at', now, 'ends_at', ends, 'until', ARGV[6],
  'calls_left', ARGV[4], 'hits', 0)
if ends ~= '' then redis.call('PEXPIREAT', rec, ends) end
redis.call('ZADD', KEYS[1], seq, ARGV[2])
redis.call('INCR', KEYS[3])
return {now, ends}
`;

/**
 * Those in force, oldest first, and the version they are of. ARGV: prefix, service now ('' for
 * none). Returns { version, { id, input, created_at, ends_at, calls_left, hits }... }.
 */
const listIncidents = `${prune}
local out = {tonumber(redis.call('GET', KEYS[3]) or '0')}
for _, id in ipairs(live_ids(KEYS[1], ARGV[1], ARGV[2])) do
  local row = redis.call('HMGET', ARGV[1] .. id, unpack(fields))
  table.insert(row, 1, id)
  out[#out + 1] = row
end
return out
`;

/**
 * Takes one call of the first of the given incidents still in force, in one step: a count is only
 * taken while above 0, so however many replicas ask at once, no more calls than the count are
 * changed; the last one taken ends the incident. ARGV: prefix, service now, the ids (newest first).
 * Returns { id, calls_left ('' for none), hits }, or false when none is in force.
 */
const takeIncident = `
for i = 3, #ARGV do
  local rec = ARGV[1] .. ARGV[i]
  local f = redis.call('HMGET', rec, 'until', 'calls_left')
  if f[1] and (f[1] == '' or tonumber(ARGV[2]) < tonumber(f[1])) then
    if f[2] == '' then
      return {ARGV[i], '', redis.call('HINCRBY', rec, 'hits', 1)}
    end
    local left = tonumber(f[2])
    if left > 0 then
      local hits = redis.call('HINCRBY', rec, 'hits', 1)
      if left == 1 then
        redis.call('DEL', rec)
        redis.call('ZREM', KEYS[1], ARGV[i])
        redis.call('INCR', KEYS[3])
      else
        redis.call('HSET', rec, 'calls_left', left - 1)
      end
      return {ARGV[i], left - 1, hits}
    end
  end
end
return false
`;

/** Ends one. ARGV: prefix, id, service now. Returns its row as listIncidents's, or false when not in force. */
const endIncident = `${prune}
local rec = ARGV[1] .. ARGV[2]
local u = redis.call('HGET', rec, 'until')
if not u then return false end
local row = redis.call('HMGET', rec, unpack(fields))
redis.call('DEL', rec)
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('INCR', KEYS[3])
if u ~= '' and tonumber(ARGV[3]) >= tonumber(u) then return false end
table.insert(row, 1, ARGV[2])
return row
`;

/** Ends all. ARGV: prefix. Returns how many were in force. */
const clearIncidents = `${prune}
local ids = live_ids(KEYS[1], ARGV[1], '')
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1])
redis.call('INCR', KEYS[3])
return #ids
`;

export const incidentScripts = { addIncident, listIncidents, takeIncident, endIncident, clearIncidents } as const;
