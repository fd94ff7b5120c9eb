/**
 * Same bytes (issue #39): each statistic as the mock served it on its first call, beside the rollup
 * the reference implementation computes from the rows themselves, read from the dataset's database
 * file in this process. For the Enterprise key (every round) and the trial key (rounds up to its
 * cutoff: the answer's as_of less the plan's round lag).
 */
import { DatabaseSync } from 'node:sqlite';
import { plans } from '@investor-graph/contract/plans';
import { resources, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import { rowColumns, storedRows, tableOf, type StoredRow } from '@investor-graph/dataset-tools/database';
// The reference: the rollups computed by scanning rows as they are fed, as every call did before issue #39.
import { rollupFromRows } from '@investor-graph/engine/testing';

/** Per statistic and key: "same bytes", the first difference, or why it was not compared. */
export type SameBytes = Record<string, { enterprise: string; trial: string }>;

const BATCH = 10_000;
const DAY = 86_400_000;

/**
 * A resource's rows in key order (as the mock's store feeds them), read back from their stored form a batch at a time.
 */
function* rowsOf(db: DatabaseSync, resource: ResourceName): Generator<Row> {
  const statement = db.prepare(
    `SELECT ${rowColumns(resource)} FROM ${tableOf(resource)} WHERE key > ? ORDER BY key LIMIT ${BATCH}`,
  );
  const stored = storedRows(db);
  for (let after = ''; ;) {
    const batch = statement.all(after) as StoredRow[];
    for (const row of batch) yield stored.row(resource, row);
    if (batch.length < BATCH) return;
    after = batch[batch.length - 1]!.key;
  }
}

/** "same bytes", or where the served rows and the reference's first part ways. */
export function firstDifference(served: Row[], expected: Row[]): string {
  const [a, b] = [JSON.stringify(served), JSON.stringify(expected)];
  if (a === b) return 'same bytes';
  const cut = (row: Row | undefined) => (row === undefined ? 'no row' : JSON.stringify(row).slice(0, 200));
  for (let i = 0; i < Math.max(served.length, expected.length); i++) {
    if (JSON.stringify(served[i]) !== JSON.stringify(expected[i]))
      return (
        `row ${i + 1} of ${served.length} served / ${expected.length} from the rows: served ` +
        `${cut(served[i])}, from the rows ${cut(expected[i])}`
      );
  }
  return `the texts differ at character ${[...a].findIndex((c, i) => c !== b[i])}`;
}

/**
 * Compares each statistic's served body (`bodies`, by the scale section's operation names: the
 * statistic's path, and the same with ", trial key") with the reference's rollup from the rows of
 * the database `file`. Every rollup reads all rounds or edges: a few minutes at ten million rows.
 */
export async function sameBytes(
  file: string,
  names: readonly string[],
  bodies: Record<string, string>,
  log: (line: string) => void,
): Promise<SameBytes> {
  const result: SameBytes = {};
  const known = new Set(resources.map((r) => r.name));
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = (resource: ResourceName) => {
      if (!known.has(resource)) throw new Error(`rollupFromRows asked for ${resource}, which is not a resource`);
      return rowsOf(db, resource);
    };
    for (const name of names) {
      const compare = async (key: 'enterprise' | 'trial'): Promise<string> => {
        const body = bodies[`/statistics/${name}${key === 'trial' ? ', trial key' : ''}`];
        if (body === undefined) return 'not compared: no answer was kept';
        const served = JSON.parse(body) as { data?: { rows?: Row[] }; as_of?: string };
        if (!served.data?.rows || !served.as_of)
          return `not compared: the answer was not a statistic (${body.slice(0, 120)})`;
        const lag = plans[key].round_lag_days;
        const cutoff = lag > 0 ? new Date(Date.parse(served.as_of) - lag * DAY).toISOString().slice(0, 10) : null;
        const started = performance.now();
        const line = firstDifference(served.data.rows, await rollupFromRows(name, rows, cutoff));
        log(
          `  ${name}, ${key} key${cutoff ? ` (rounds up to ${cutoff})` : ''}: ${line} (reference from the ` +
            `rows in ${Math.round(performance.now() - started)} ms)`,
        );
        return line;
      };
      result[name] = { enterprise: await compare('enterprise'), trial: await compare('trial') };
    }
  } finally {
    db.close();
  }
  return result;
}
