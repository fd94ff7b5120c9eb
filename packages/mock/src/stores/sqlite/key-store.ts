/**
 * The mock's state in an SQLite database file (`--state FILE`), through Node's built-in node:sqlite:
 * keys (hashes only), counters, balances, trial e-mail hashes, the clock and the cursor secret.
 * Several mock processes may open one file: each call's admission and count are one `BEGIN
 * IMMEDIATE` transaction, so SQLite's lock keeps quotas, balances and trials exact across them.
 * Opening the file (what kind it is, a migration, the retries while another mock holds it): state-open.ts.
 *
 * Durability (the mock README, "State across restarts and processes"): WAL with synchronous=NORMAL by default. A
 * transaction is in the WAL file before its call is answered, so a killed or crashed mock loses
 * nothing it answered; a power loss or an OS crash may lose the last transactions since the WAL was
 * last synced (at a checkpoint), never the database's consistency. `synchronous: 'full'` fsyncs the
 * WAL at every commit, so not even a power loss loses an answered call, at about half the counted
 * calls a second on this machine (BENCHMARKS.md).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { KeyRecord, MetaName, StoreInfo, TrialCap } from '@investor-graph/engine/adapter';
import { TransactionalKeyStore } from '@investor-graph/engine/adapter';
import { columns, prefixed, toRecord, toRow, type KeyRow } from './state-schema.ts';
import { SqliteBuckets } from './buckets.ts';
import { FileRefusals, isBusy, lockedElsewhere, tellError } from './state-refusals.ts';
import { openStateDatabase, readyStateFile, type StateSync } from './state-open.ts';

export { StateFileError } from './state-file.ts';
export { schemaVersion } from './state-schema.ts';
export type { StateSync } from './state-open.ts';

export class SqliteKeyStore extends TransactionalKeyStore {
  private readonly db: DatabaseSync;
  private readonly statements: Record<
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'byHash'
    | 'byId'
    | 'byEmail'
    | 'insert'
    | 'save'
    | 'list'
    | 'getMeta'
    | 'setMeta',
    StatementSync
  >;
  private depth = 0;
  private readonly file: string;
  private trialBuckets: SqliteBuckets | undefined;
  private readonly refusals: FileRefusals;
  /** Told of each failed transaction, by kind (the metrics: operate/store-health.ts). */
  onError: ((kind: 'busy' | 'file' | 'error') => void) | undefined;

  /** Opens (or creates, mode 0600) the state database; refuses a file that is not one, naming why (state-open.ts). */
  static open(file: string, options: { log?: (line: string) => void; synchronous?: StateSync } = {}): SqliteKeyStore {
    readyStateFile(file, (path) => new SqliteKeyStore(path, 'full'), options.log);
    return new SqliteKeyStore(file, options.synchronous ?? 'normal');
  }

  /** Use `open`: this opens a database file as it is (the migration builds one with it). */
  constructor(file: string, synchronous: StateSync) {
    super();
    this.file = file;
    this.refusals = new FileRefusals(file);
    this.db = openStateDatabase(file, synchronous);
    const prepare = (sql: string) => this.db.prepare(sql);
    this.statements = {
      begin: prepare('BEGIN IMMEDIATE'),
      commit: prepare('COMMIT'),
      rollback: prepare('ROLLBACK'),
      byHash: prepare(`SELECT ${columns} FROM keys WHERE hash = ?`),
      byId: prepare(`SELECT ${columns} FROM keys WHERE key_id = ?`),
      byEmail: prepare(`SELECT ${columns} FROM keys WHERE email_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`),
      insert: prepare(
        `INSERT INTO keys (${columns}) VALUES (${columns
          .split(', ')
          .map((c) => `$${c}`)
          .join(', ')}) ON CONFLICT (hash) DO NOTHING`,
      ),
      save: prepare(
        'UPDATE keys SET calls_used = ?, period_start = ?, period_end = ?, balance_rows = ?, revoked_at = ? ' +
          'WHERE key_id = ?',
      ),
      list: prepare(`SELECT ${columns} FROM keys ORDER BY rowid`),
      getMeta: prepare('SELECT value FROM meta WHERE name = ?'),
      setMeta: prepare(
        'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      ),
    };
  }

  /** The buckets every mock on this file shares (a client address's budgets); `enforce` false: always full. */
  buckets(enforce = true): SqliteBuckets {
    return new SqliteBuckets(this.db, (work) => this.transaction(work), enforce);
  }

  /** The trial cap's window (a minute of wall-clock time), shared by every mock on this file. */
  protected override countTrial(cap: TrialCap): number {
    if (cap.perMinute === null) return 0;
    this.trialBuckets ??= this.buckets();
    return this.trialBuckets.countInWindow('trial-cap', '', cap.perMinute, 60_000);
  }

  transaction<T>(work: () => T): T {
    if (this.depth > 0) return work();
    try {
      this.statements.begin.run();
    } catch (error) {
      tellError(this.onError, error);
      // Locked longer than any call of a mock holds it: something else (a sqlite3 shell in a
      // transaction, a backup) holds the file. Not the client's fault, nor a failure of the mock.
      if (isBusy(error)) throw lockedElsewhere();
      this.refusals.refuse(error);
      throw error;
    }
    this.depth++;
    try {
      const result = work();
      this.statements.commit.run();
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.statements.rollback.run();
      tellError(this.onError, error);
      this.refusals.refuse(error);
      throw error;
    } finally {
      this.depth--;
    }
  }

  byHash(hash: string): KeyRecord | undefined {
    const row = this.statements.byHash.get(hash) as KeyRow | undefined;
    return row && toRecord(row);
  }

  byId(keyId: string): KeyRecord | undefined {
    const row = this.statements.byId.get(keyId) as KeyRow | undefined;
    return row && toRecord(row);
  }

  trialByEmail(emailHash: string): KeyRecord | undefined {
    const row = this.statements.byEmail.get(emailHash) as KeyRow | undefined;
    return row && toRecord(row);
  }

  insert(record: KeyRecord): boolean {
    return Number(this.statements.insert.run(prefixed(toRow(record))).changes) === 1;
  }

  save(record: KeyRecord): void {
    this.statements.save.run(
      record.callsUsed,
      record.periodStart,
      record.periodEnd,
      record.balanceRows,
      record.revokedAt,
      record.keyId,
    );
  }

  list(): KeyRecord[] {
    return (this.statements.list.all() as unknown as KeyRow[]).map(toRecord);
  }

  getMeta(name: MetaName): string | undefined {
    return (this.statements.getMeta.get(name) as { value: string } | undefined)?.value;
  }

  setMeta(name: MetaName, value: string): void {
    this.statements.setMeta.run(name, value);
  }

  pruneTrials(before: number): number {
    return Number(
      this.transaction(() =>
        this.db
          .prepare("DELETE FROM keys WHERE plan = 'trial' AND expires_at IS NOT NULL AND expires_at < ?")
          .run(before),
      ).changes,
    );
  }

  describe(): StoreInfo {
    return { store: 'sqlite', location: this.file, reachable: this.db.isOpen };
  }

  /** Moves what the WAL holds into the database file itself. */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
