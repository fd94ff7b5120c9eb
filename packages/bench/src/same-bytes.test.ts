/**
 * The bench's same-bytes comparison, on a real generated database and the mock's reference rollups:
 * it says "same bytes" for the reference's own rows, and the first difference for anything else.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { plans } from '@investor-graph/contract/plans';
import { defaultDataset, type ResourceName, type Row } from '@investor-graph/dataset-tools';
import {
  openCachedDatabase,
  rowColumns,
  storedRows,
  tableOf,
  type StoredRow,
} from '@investor-graph/dataset-tools/database';
import { rollupFromRows } from '@investor-graph/engine/testing';
import { firstDifference, sameBytes } from './same-bytes.ts';

let dir: string;
let file: string;
const asOf = '2026-11-20T03:00:00Z';
const trialCutoff = new Date(Date.parse(asOf) - plans.trial.round_lag_days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ig-same-bytes-'));
  const opened = openCachedDatabase({ seed: 'same-bytes', scale: 2_000, asOf: defaultDataset.asOf }, { dir });
  opened.db.close();
  file = opened.file;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A statistic's answer as the mock writes it, with `rows` as its data. */
const answer = (name: string, rows: Row[]) => JSON.stringify({ data: { name, rows }, as_of: asOf });

/** The reference's rollup over every row of the database (read whole: the dataset is small). */
async function reference(name: string, cutoff: string | null): Promise<Row[]> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const stored = storedRows(db);
    const rows = (resource: ResourceName) =>
      (db.prepare(`SELECT ${rowColumns(resource)} FROM ${tableOf(resource)} ORDER BY key`).all() as StoredRow[]).map(
        (r) => stored.row(resource, r),
      );
    return await rollupFromRows(name, rows, cutoff);
  } finally {
    db.close();
  }
}

test('a statistic served as the reference computes it from the rows is the same bytes, on both keys', async () => {
  const bodies = {
    '/statistics/rounds-by-year': answer('rounds-by-year', await reference('rounds-by-year', null)),
    '/statistics/rounds-by-year, trial key': answer('rounds-by-year', await reference('rounds-by-year', trialCutoff)),
  };
  expect(await sameBytes(file, ['rounds-by-year'], bodies, () => {})).toEqual({
    'rounds-by-year': { enterprise: 'same bytes', trial: 'same bytes' },
  });
});

test(`a trial answer that ignores the round lag is not the same bytes: the comparison applies the trial's \
cutoff`, async () => {
  const everyRound = answer('rounds-by-stage', await reference('rounds-by-stage', null));
  const result = await sameBytes(
    file,
    ['rounds-by-stage'],
    { '/statistics/rounds-by-stage': everyRound, '/statistics/rounds-by-stage, trial key': everyRound },
    () => {},
  );
  expect(result['rounds-by-stage']!.enterprise).toBe('same bytes');
  expect(result['rounds-by-stage']!.trial).toMatch(/^row \d+ of \d+ served \/ \d+ from the rows: served \{"stage"/);
});

test('a changed figure, a missing row or a missing answer is named, never passed as the same bytes', async () => {
  const rows = await reference('most-active-investors', null);
  const changed = rows.map((r, i) => (i === 3 ? { ...r, investments: (r.investments as number) + 1 } : r));
  const n = rows.length;
  expect(firstDifference(changed, rows)).toMatch(
    new RegExp(
      `^row 4 of ${n} served / ${n} from the rows: served ` +
        `\\{"rank":4,.*"investments":${(rows[3]!.investments as number) + 1},`,
    ),
  );
  expect(firstDifference(rows.slice(0, -1), rows)).toBe(
    `row ${n} of ${n - 1} served / ${n} from the rows: served no row, from the rows ${JSON.stringify(rows[n - 1])}`,
  );
  const result = await sameBytes(
    file,
    ['most-active-investors'],
    { '/statistics/most-active-investors': JSON.stringify({ type: 'about:blank', status: 500 }) },
    () => {},
  );
  expect(result['most-active-investors']!.enterprise).toMatch(/^not compared: the answer was not a statistic/);
  expect(result['most-active-investors']!.trial).toBe('not compared: no answer was kept');
});
