/**
 * The atomic steps of a key store with transactions (memory, SQLite), written once: each runs as
 * one of the store's transactions and decides by the table of stores/metering-table.ts, so a
 * store of this kind writes only its reads and writes (its rows, its transaction).
 */
import { liveTrial, meter, refunded } from './metering-table.ts';
import type {
  ChargeOutcome,
  ChargeStep,
  KeyRecord,
  KeyStore,
  KeyTransactions,
  MetaName,
  StoreInfo,
  TrialCap,
  TrialInsert,
} from './key-store.ts';

/**
 * A store with transactions (memory, SQLite): the parts' atomic steps each run as one of their
 * transactions, so a store of this kind writes only its reads and writes. Everything it does is
 * synchronous: its answers are plain values.
 */
export abstract class TransactionalKeyStore implements KeyStore, KeyTransactions {
  /** Trial keys issued in the current minute (real time), by this process. */
  private trialWindow = { start: -Infinity, count: 0 };

  abstract transaction<T>(work: () => T): T;
  abstract byHash(hash: string): KeyRecord | undefined;
  abstract byId(keyId: string): KeyRecord | undefined;
  abstract trialByEmail(emailHash: string): KeyRecord | undefined;
  abstract insert(record: KeyRecord): boolean;
  abstract save(record: KeyRecord): void;
  abstract list(): KeyRecord[];
  abstract getMeta(name: MetaName): string | undefined;
  abstract setMeta(name: MetaName, value: string): void;
  abstract pruneTrials(before: number): number;
  abstract describe(): StoreInfo;
  abstract close(): void;

  admitAndCharge(step: ChargeStep): ChargeOutcome {
    return this.transaction(() => {
      const stored = this.byId(step.keyId);
      if (!stored) throw new Error(`[investor-graph mock] key ${step.keyId} is no longer in the state store`);
      const outcome = meter(stored, step);
      if (outcome.refusal === null) this.save(outcome.record);
      return outcome;
    });
  }

  refund(keyId: string, counted: boolean, cost: number): void {
    this.transaction(() => {
      const stored = this.byId(keyId);
      if (stored) this.save(refunded(stored, counted, cost));
    });
  }

  insertTrial(record: KeyRecord, now: number, cap: TrialCap): TrialInsert {
    return this.transaction(() => {
      const live = this.trialByEmail(record.emailHash!);
      if (live && liveTrial(live, now)) return 'live';
      const wait = this.countTrial(cap);
      if (wait) return { wait };
      return this.insert(record) ? 'inserted' : 'live';
    });
  }

  update(keyId: string, edit: (current: KeyRecord) => void): KeyRecord | undefined {
    return this.transaction(() => {
      const stored = this.byId(keyId);
      if (!stored) return undefined;
      const current = { ...stored };
      edit(current);
      this.save(current);
      return current;
    });
  }

  claimMeta(name: MetaName, initial: string): string {
    return this.transaction(() => {
      const kept = this.getMeta(name);
      if (kept !== undefined) return kept;
      this.setMeta(name, initial);
      return initial;
    });
  }

  changeMeta(name: MetaName, edit: (current: string | undefined) => string): string {
    return this.transaction(() => {
      const next = edit(this.getMeta(name));
      this.setMeta(name, next);
      return next;
    });
  }

  /**
   * Counts one trial key against the minute's cap (in this process; a store
   * shared by processes keeps it where they all count), or the seconds to wait.
   */
  protected countTrial(cap: TrialCap): number {
    if (cap.perMinute === null) return 0;
    if (cap.at - this.trialWindow.start >= 60_000) this.trialWindow = { start: cap.at, count: 0 };
    if (this.trialWindow.count >= cap.perMinute)
      return Math.max(1, Math.ceil((this.trialWindow.start + 60_000 - cap.at) / 1000));
    this.trialWindow.count++;
    return 0;
  }
}
