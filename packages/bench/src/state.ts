/**
 * The cost of --state: counted calls per second with the state in memory against the SQLite
 * database, the database holding a handful of keys against 100,000, and --state-sync full. Each server is a fresh mock process;
 * the configurations take turns, round after round, and each figure is the median of its rounds
 * with the spread (lowest-highest), since this machine's runs vary from one to the next.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SqliteKeyStore } from '@investor-graph/mock/node';
import type { KeyRecord } from '@investor-graph/mock';
import type { Started } from './processes.ts';

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
  rps: { memory: Spread; database: Spread; database_large: Spread; database_full_sync: Spread };
  ratios: { database_vs_memory: number; large_vs_small: number; full_sync_vs_memory: number };
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
          keyId: `key_${randomBytes(6).toString('hex')}`, hash: randomBytes(32).toString('hex'), plan: 'trial', prefix: 'igk_trial_', last4: '0000',
          createdAt: Date.parse('2026-11-20T00:00:00Z'), expiresAt: Date.parse('2026-11-27T00:00:00Z'), revokedAt: null, emailHash: randomBytes(32).toString('hex'),
          callsUsed: i % 1000, periodStart: Date.parse('2026-11-20T00:00:00Z'), periodEnd: Date.parse('2026-11-27T00:00:00Z'), balanceRows: null,
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
  const configs = { memory: [] as string[], database: ['--state', small], database_large: ['--state', large], database_full_sync: ['--state', small, '--state-sync', 'full'] };
  const runs: Record<keyof typeof configs, number[]> = { memory: [], database: [], database_large: [], database_full_sync: [] };
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, args] of Object.entries(configs) as [keyof typeof configs, string[]][]) {
      const server = await options.startMock(args);
      try {
        runs[name].push(await options.rps(`${server.url}${options.path}`));
      } finally {
        await server.stop();
      }
      options.log(`counted calls, state ${name.padEnd(18)} round ${round + 1}: ${runs[name].at(-1)} req/s`);
    }
  }
  const keysIn = (file: string): number => {
    const store = SqliteKeyStore.open(file);
    try {
      return store.list().length;
    } finally {
      store.close();
    }
  };
  const rps = { memory: spread(runs.memory), database: spread(runs.database), database_large: spread(runs.database_large), database_full_sync: spread(runs.database_full_sync) };
  const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
  return {
    rounds: options.rounds,
    keys: { small: keysIn(small), large: keysIn(large) },
    rps,
    ratios: {
      database_vs_memory: ratio(rps.database.median, rps.memory.median),
      large_vs_small: ratio(rps.database.median, rps.database_large.median),
      full_sync_vs_memory: ratio(rps.database_full_sync.median, rps.memory.median),
    },
  };
}
