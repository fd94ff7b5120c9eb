/**
 * The cost of --state: counted calls per second with the state in memory against the SQLite
 * database, the database holding a handful of keys against 100,000, --state-sync full, the state on
 * Redis (one replica), and three replicas on Redis behind haproxy. Each server is a fresh mock process;
 * the configurations take turns, round after round, and each figure is the median of its rounds
 * with the spread (lowest-highest), since this machine's runs vary from one to the next.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SqliteKeyStore } from '@investor-graph/mock/node';
import type { KeyRecord } from '@investor-graph/mock';
import type { Started } from './processes.ts';
import { redisMissing, startBalancer, startRedisServer } from './redis-servers.ts';

export interface Spread {
  median: number;
  low: number;
  high: number;
  runs: number[];
}

export interface StateFigures {
  rounds: number;
  /** Keys in each database at the end (the small one's are the runs' own). */
  keys: { small: number; large: number };
  /** Counted calls per second (the same record, so every answer is a counted, committed call). */
  rps: {
    memory: Spread;
    database: Spread;
    database_large: Spread;
    database_full_sync: Spread;
    redis: Spread | null;
    redis_three_replicas: Spread | null;
    memory_three_replicas: Spread | null;
  };
  ratios: {
    database_vs_memory: number;
    large_vs_small: number;
    full_sync_vs_memory: number;
    redis_vs_memory: number | null;
    three_replicas_vs_one: number | null;
    three_on_redis_vs_three_on_memory: number | null;
  };
  /** Why there are no Redis figures, when there are none. */
  redis_skipped: string | null;
}

/** Median, lowest and highest of several runs (bench.ts reads its medians through it too). */
export const spread = (runs: number[]): Spread => {
  const sorted = [...runs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, low: sorted[0]!, high: sorted.at(-1)!, runs };
};

/** A database already holding `count` keys besides the bench's own (written directly: as many trial calls would be). */
function fill(file: string, count: number): void {
  const store = SqliteKeyStore.open(file);
  try {
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const record: KeyRecord = {
          keyId: `key_${randomBytes(6).toString('hex')}`,
          hash: randomBytes(32).toString('hex'),
          plan: 'trial',
          prefix: 'igk_trial_',
          last4: '0000',
          createdAt: Date.parse('2026-11-20T00:00:00Z'),
          expiresAt: Date.parse('2026-11-27T00:00:00Z'),
          revokedAt: null,
          emailHash: randomBytes(32).toString('hex'),
          callsUsed: i % 1000,
          periodStart: Date.parse('2026-11-20T00:00:00Z'),
          periodEnd: Date.parse('2026-11-27T00:00:00Z'),
          balanceRows: null,
        };
        store.insert(record);
      }
    });
  } finally {
    store.close();
  }
}

export async function benchState(options: {
  temp: string;
  rounds: number;
  largeKeys: number;
  startMock: (args: string[]) => Promise<Started>;
  /** Requests per second of a load run against `url`. */
  rps: (url: string) => Promise<number>;
  path: string;
  log: (line: string) => void;
}): Promise<StateFigures> {
  const small = join(options.temp, 'state-small.db');
  const large = join(options.temp, 'state-large.db');
  // The small database holds only the keys the runs make themselves (the bench's and the banner's).
  fill(small, 0);
  fill(large, options.largeKeys);
  const redisSkipped = redisMissing();
  const redis = redisSkipped ? null : await startRedisServer(join(options.temp, 'redis'));
  type Config =
    | 'memory'
    | 'database'
    | 'database_large'
    | 'database_full_sync'
    | 'redis'
    | 'redis_three_replicas'
    | 'memory_three_replicas';
  const configs: Partial<Record<Config, string[]>> = {
    memory: [],
    database: ['--state', small],
    database_large: ['--state', large],
    database_full_sync: ['--state', small, '--state-sync', 'full'],
    // Three replicas each on its own memory, behind the same balancer: what the balancer and three
    // processes on this machine's cores cost without Redis, the peer of three on Redis.
    ...(redis
      ? { redis: ['--state', redis.url], redis_three_replicas: ['--state', redis.url], memory_three_replicas: [] }
      : {}),
  };
  const runs: Record<Config, number[]> = {
    memory: [],
    database: [],
    database_large: [],
    database_full_sync: [],
    redis: [],
    redis_three_replicas: [],
    memory_three_replicas: [],
  };
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const [name, args] of Object.entries(configs) as [Config, string[]][]) {
        const servers = await Promise.all(
          Array.from({ length: name.endsWith('_three_replicas') ? 3 : 1 }, () => options.startMock(args)),
        );
        const balancer =
          servers.length > 1
            ? await startBalancer(
                join(options.temp, `haproxy-${round}`),
                servers.map((s) => s.url),
              )
            : null;
        try {
          runs[name].push(await options.rps(`${balancer?.url ?? servers[0]!.url}${options.path}`));
        } finally {
          await balancer?.stop();
          await Promise.all(servers.map((s) => s.stop()));
        }
        options.log(`counted calls, state ${name.padEnd(20)} round ${round + 1}: ${runs[name].at(-1)} req/s`);
      }
    }
  } finally {
    await redis?.stop();
  }
  const keysIn = (file: string): number => {
    const store = SqliteKeyStore.open(file);
    try {
      return store.list().length;
    } finally {
      store.close();
    }
  };
  const rps = {
    memory: spread(runs.memory),
    database: spread(runs.database),
    database_large: spread(runs.database_large),
    database_full_sync: spread(runs.database_full_sync),
    redis: redis ? spread(runs.redis) : null,
    redis_three_replicas: redis ? spread(runs.redis_three_replicas) : null,
    memory_three_replicas: redis ? spread(runs.memory_three_replicas) : null,
  };
  const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
  return {
    rounds: options.rounds,
    keys: { small: keysIn(small), large: keysIn(large) },
    rps,
    ratios: {
      database_vs_memory: ratio(rps.database.median, rps.memory.median),
      large_vs_small: ratio(rps.database.median, rps.database_large.median),
      full_sync_vs_memory: ratio(rps.database_full_sync.median, rps.memory.median),
      redis_vs_memory: rps.redis ? ratio(rps.redis.median, rps.memory.median) : null,
      three_replicas_vs_one:
        rps.redis && rps.redis_three_replicas ? ratio(rps.redis_three_replicas.median, rps.redis.median) : null,
      three_on_redis_vs_three_on_memory:
        rps.redis_three_replicas && rps.memory_three_replicas
          ? ratio(rps.redis_three_replicas.median, rps.memory_three_replicas.median)
          : null,
    },
    redis_skipped: redisSkipped,
  };
}
