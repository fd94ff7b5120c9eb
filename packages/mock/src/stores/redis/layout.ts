/**
 * What the Redis store keeps on the server. Under a prefix (`igk:`, or the URL's `prefix=`, so
 * several independent mocks can share one server): `key:<id>` a record (a hash), `hash:<sha256>`
 * and `email:<sha256>` point at one, `keys` lists them in the order made, `trials` by the end of
 * their trial, `charge:<id>` remembers a charge for a minute (so one never answered is taken back
 * exactly once), `meta:<name>` the clock and the cursor secret, `bucket:<kind>:<name>` the token
 * buckets (rate-limiter.ts), `journal` the request journal every mock on the prefix writes
 * (a stream, capped: journal.ts), `incident:<id>`, `incidents`, `incidents:seq` and `incidents:version`
 * the incidents in force (incident-scripts.ts).
 */
import { trialKeyKeptDays } from '@investor-graph/contract/plans';
import type { MetaName } from '@investor-graph/engine/adapter';
import type { RedisConnection } from './connection.ts';
import { RedisStateError } from './url.ts';

export const DAY = 86_400_000;
/** How long a trial key is known after it ended (`trial_key_kept_days` of the plan table): kept in Redis as long. */
export const trialKeptAfterEnd = trialKeyKeptDays * DAY;

/** The layout's version, kept at `igk:version`: a newer one is refused at start. */
const redisLayoutVersion = 1;
/** The names of what the store keeps, under its prefix (`igk:` unless the URL's `prefix=` says). */
export function names(prefix: string) {
  return {
    record: (id: string) => `${prefix}key:${id}`,
    hash: (hash: string) => `${prefix}hash:${hash}`,
    email: (emailHash: string) => `${prefix}email:${emailHash}`,
    charge: (id: string) => `${prefix}charge:${id}`,
    meta: (name: MetaName) => `${prefix}meta:${name}`,
    list: `${prefix}keys`,
    sequence: `${prefix}seq`,
    trials: `${prefix}trials`,
    trialCap: `${prefix}trial-cap`,
    journal: `${prefix}journal`,
    incident: `${prefix}incident:`,
    incidents: `${prefix}incidents`,
    incidentSeq: `${prefix}incidents:seq`,
    incidentVersion: `${prefix}incidents:version`,
    version: `${prefix}version`,
  };
}

/** Checks the layout on the server is one this mock reads (and marks an empty server as this layout). */
export async function checkLayout(redis: RedisConnection, versionKey: string): Promise<void> {
  // SET ... NX GET (the clock, the secret, the layout) came with Redis 7.0.
  const info = await redis.call((c) => c.info('server'));
  const version = /redis_version:(\d+)\./.exec(info)?.[1];
  if (Number(version) < 7)
    throw new RedisStateError(
      `--state ${redis.target.shown}: Redis ${/redis_version:(\S+)/.exec(info)?.[1]} is too old; ` +
        'the mock needs Redis 7.0 or later',
    );
  const kept = await redis.call((c) => c.set(versionKey, String(redisLayoutVersion), 'NX', 'GET'));
  if (kept !== null && Number(kept) > redisLayoutVersion) {
    throw new RedisStateError(
      `--state ${redis.target.shown} holds the state of a newer version of the mock ` +
        `(layout ${kept}; this one reads ${redisLayoutVersion}); upgrade @investor-graph/mock or use another database`,
    );
  }
}
