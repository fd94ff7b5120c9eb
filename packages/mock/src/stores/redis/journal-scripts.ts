/**
 * The request journal's scripts (journal.ts): the stream's counts read in one step, and a clear
 * that keeps its ids going. The stream's entries are `0-N` (XADD's `0-*`: Redis numbers them, one
 * after another across every mock), the entry of seq N-1; so the stream itself says how far it got
 * (`last-generated-id`) and how many were added since it was cleared (`entries-added`, which the
 * clear sets back to 0 with XSETID), and no other key is needed.
 */

/**
 * The journal as it stands, in seqs. KEYS: the stream. Returns { the seq the next entry gets, the
 * seq of the first one held (the next when none is), entries added since the last clear }.
 */
const window = `
local function window(key)
  if redis.call('EXISTS', key) == 0 then return {0, 0, 0} end
  local info = redis.call('XINFO', 'STREAM', key)
  local f = {}
  for i = 1, #info, 2 do f[info[i]] = info[i + 1] end
  local next = tonumber(string.match(f['last-generated-id'], '%d+$'))
  local first = next
  if f['first-entry'] then first = tonumber(string.match(f['first-entry'][1], '%d+$')) - 1 end
  return {next, first, f['entries-added']}
end
`;

const journalWindow = `${window}
return window(KEYS[1])
`;

/**
 * Forgets every entry, for every mock on the stream: trimmed to none, its last id kept (a cursor
 * from before names nothing later) and its count of entries added set back to 0 (nothing dropped
 * since). KEYS: the stream. Returns the window as it was (journalWindow's).
 */
const clearJournal = `${window}
local w = window(KEYS[1])
if w[1] > 0 then
  redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)
  redis.call('XSETID', KEYS[1], '0-' .. string.format('%d', w[1]), 'ENTRIESADDED', 0)
end
return w
`;

/**
 * Writes an entry unless a text of it is a key's: one made on another mock (a key of the user's own
 * form, through its control API) that this one never saw, found by its hash as the keys are kept.
 * KEYS: the stream, then `hash:<sha256>` of each text. ARGV: the cap, the entry. Returns the
 * 1-based places of the texts that are keys, none when the entry was written.
 */
const recordJournal = `
local found = {}
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then found[#found + 1] = i - 1 end
end
if #found == 0 then redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-*', 'entry', ARGV[2]) end
return found
`;

export const journalScripts = { journalWindow, clearJournal, recordJournal } as const;
