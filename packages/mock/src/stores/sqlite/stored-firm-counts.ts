/**
 * The busiest firms of the SQLite store's statistics (stored-rollups.ts), the one count whose top
 * cannot be read off the stored table and adjusted: what rebuilds and a round lag change may move
 * any firm up or down, so a firm that gained is judged on its own and the stored busiest are
 * walked down, a batch at a time, only until none left can reach the top.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { rollupCount as count, type FirmCount, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { roundVisible } from '@investor-graph/engine/adapter';
import { arrays, type Overlay } from './merged-reads.ts';

/** A row as the database has it, or as it is now. */
export type Read = (resource: ResourceName, key: string) => Row | undefined;

/** Busiest firms read at a time while looking for the top ones. */
const FIRM_BATCH = 256;

export class StoredFirmCounts {
  private readonly statements: Record<'edgesOfRound' | 'edgesOfMissingRound' | 'busiest' | 'firm', StatementSync>;
  private readonly overlay: Map<ResourceName, Overlay>;
  private readonly base: Read;
  private readonly current: Read;
  private readonly firmBatch: number;

  /** As StoredRollups's: `base` as the database has a row, `current` as it is now; `firmBatch` firms at a time. */
  constructor(
    db: DatabaseSync,
    overlay: Map<ResourceName, Overlay>,
    base: Read,
    current: Read,
    firmBatch = FIRM_BATCH,
  ) {
    this.overlay = overlay;
    this.base = base;
    this.current = current;
    this.firmBatch = firmBatch;
    const s = (sql: string) => arrays(db.prepare(sql));
    this.statements = {
      // By the round's date on the index, then its id on the rows: only when a rebuild changes a round's visibility.
      edgesOfRound: s('SELECT firm_slug, role, key FROM investment WHERE round_on = ? AND round_id = ?'),
      edgesOfMissingRound: s('SELECT firm_slug, role, key FROM investment WHERE round_on IS NULL AND round_id = ?'),
      busiest: s(
        'SELECT firm_slug, firm_name, investments, leads FROM rollup_firm ORDER BY investments DESC, leads DESC, ' +
          'firm_slug LIMIT ? OFFSET ?',
      ),
      firm: s('SELECT firm_name, investments, leads FROM rollup_firm WHERE firm_slug = ?'),
    };
  }

  /** At least every firm that can be among the `top` busiest at `cutoff`; `lagged`: what the lag takes away. */
  top(cutoff: string | null, top: number, lagged: Map<string, FirmCount> | undefined): Map<string, FirmCount> {
    const delta = this.changes(cutoff, lagged);
    const firms = new Map<string, FirmCount>();
    const adjusted = (slug: string, name: string, investments: number, leads: number): FirmCount => {
      const d = delta.get(slug);
      return { name, investments: investments + (d?.investments ?? 0), leads: leads + (d?.leads ?? 0) };
    };
    // A firm the changes gave more to may pass any other: each is judged on its own.
    for (const [slug, d] of delta) {
      if (d.investments <= 0 && d.leads <= 0) continue;
      const stored = this.statements.firm.get(slug) as unknown as [string, number, number] | undefined;
      firms.set(slug, adjusted(slug, stored?.[0] ?? d.name, stored?.[1] ?? 0, stored?.[2] ?? 0));
    }
    // The others only lose: walk down the busiest until a firm's stored count is below the
    // top'th count found, which neither it nor any after it can reach.
    for (let offset = 0; ; offset += this.firmBatch) {
      const threshold = nthLargest(
        [...firms.values()].map((f) => f.investments),
        top,
      );
      const batch = this.statements.busiest.all(this.firmBatch, offset) as unknown as [
        string,
        string,
        number,
        number,
      ][];
      for (const [slug, name, investments, leads] of batch) {
        if (investments < threshold) return firms;
        firms.set(slug, adjusted(slug, name, investments, leads));
      }
      if (batch.length < this.firmBatch) return firms;
    }
  }

  /**
   * What the stored edge counts lack for this cutoff and the rebuilds so far, by firm (a count taken away is negative).
   */
  private changes(cutoff: string | null, lagged: Map<string, FirmCount> | undefined): Map<string, FirmCount> {
    const delta = new Map<string, FirmCount>();
    for (const [slug, f] of lagged ?? []) delta.set(slug, { ...f });
    const edge = (slug: string, name: string, role: string, by: 1 | -1) =>
      count.edge(delta, slug, name, role === 'lead', by);
    const visible = roundVisible(cutoff);
    const roundSeen = (read: Read, id: unknown): boolean => {
      if (id === null) return true;
      const round = read('round', id as string);
      return !!round && visible(round);
    };
    const edges = this.overlay.get('investment')?.rows;
    for (const [key, now] of edges ?? []) {
      const was = this.base('investment', key);
      if (was && roundSeen(this.base, was.round_id))
        edge(was.firm_slug as string, was.firm_name as string, was.role as string, -1);
      if (now && roundSeen(this.current, now.round_id))
        edge(now.firm_slug as string, now.firm_name as string, now.role as string, 1);
    }
    // A round a rebuild published, unpublished or moved across the cutoff brings or takes the
    // database's edges naming it (those a rebuild changed too are counted above).
    for (const id of this.overlay.get('round')?.rows.keys() ?? []) {
      const before = roundSeen(this.base, id);
      const after = roundSeen(this.current, id);
      if (before === after) continue;
      const was = this.base('round', id);
      const named = (was
        ? this.statements.edgesOfRound.all(was.announced_on as string, id)
        : this.statements.edgesOfMissingRound.all(id)) as unknown as [string, string, string][];
      for (const [slug, role, key] of named) {
        if (!edges?.has(key))
          edge(slug, after ? (this.base('investment', key)!.firm_name as string) : '', role, after ? 1 : -1);
      }
    }
    return delta;
  }
}

/** The n-th largest of the values, or -Infinity when there are fewer. */
function nthLargest(values: number[], n: number): number {
  if (values.length < n) return -Infinity;
  return values.sort((a, b) => b - a)[n - 1]!;
}
