import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { resources, type Row } from '@investor-graph/dataset-tools';
import { collectDataset } from '@investor-graph/dataset-tools';
import { cachedDatabaseFile, openCachedDatabase } from '@investor-graph/dataset-tools/database';
import { Dumps } from '@investor-graph/engine/adapter';
import { diskDumpFiles } from '../../dumps/disk/files.ts';
import { MemoryStore } from '@investor-graph/engine/adapter';
import { nested, type IndexName, type Page, type Store } from '@investor-graph/engine/adapter';
import { SqliteStore } from './dataset-store.ts';
import { loadInput } from '../../cli/start-mock.ts';

const input = await loadInput({});
const cache = mkdtempSync(join(tmpdir(), 'ig-dataset-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** Every page of a list, walked at an odd page size so that pages end anywhere. */
function walk(page: (after: string | null) => Page): Row[] {
  const rows: Row[] = [];
  let after: string | null = null;
  do {
    const next = page(after);
    rows.push(...next.rows);
    after = next.nextKey;
  } while (after !== null);
  return rows;
}

/** What a store serves, as JSON: every list walked, a few parents' nested lists, the feed, the dumps' lines. */
async function everything(store: Store): Promise<string> {
  const out: unknown[] = [];
  for (const r of resources) {
    out.push(
      r.name,
      store.count(r.name),
      walk((after) => store.page(r.name, after, 97)),
    );
    const scan = await store.scan(r.name, () => Promise.resolve(false));
    const lines: string[] = [];
    for (let batch = scan.next(500); batch.length; batch = scan.next(500)) lines.push(...batch);
    out.push(lines.length, lines.at(0), lines.at(-1));
  }
  const recent = (row: Row) => (row.announced_on as string) >= '2025-01-01';
  out.push(walk((after) => store.page('round', after, 50, recent)));
  // A date range (announced_since and a lag): the SQLite store seeks it on the dates' index, rebuilt rounds merged in.
  for (const [from, to] of [
    ['2025-01-01', '2026-09-06'],
    ['2099-01-01', null],
    [null, '2026-12-01'],
  ] as const) {
    const keep = (row: Row) =>
      (from === null || (row.announced_on as string) >= from) && (to === null || (row.announced_on as string) <= to);
    out.push(walk((after) => store.page('round', after, 50, keep, { column: 'announced_on', from, to })));
  }
  for (const [index, spec] of Object.entries(nested) as [IndexName, (typeof nested)[IndexName]][]) {
    for (const parent of walk((after) => store.page(spec.parent, after, 100)).slice(0, 40)) {
      const key = parent[spec.parent === 'firm' || spec.parent === 'company' ? 'slug' : 'id'] as string;
      out.push(
        index,
        key,
        walk((after) => store.nestedPage(index, key, after, 7)),
        store.nestedRows(index, key).length,
      );
    }
  }
  out.push(
    walk((after) => {
      const p = store.changePage('2026-11-01T00:00:00Z', after === null ? 0 : Number(after), 13);
      return { rows: p.items as unknown as Row[], nextKey: p.more ? String(p.items.at(-1)!.sequence) : null };
    }),
  );
  return JSON.stringify(out);
}

test(
  'the SQLite store serves what the memory store serves, ' + 'byte for byte, before and after every pending rebuild',
  async () => {
    const memory = new MemoryStore(structuredClone(input));
    const sqlite = SqliteStore.fromInput(structuredClone(input));
    expect(await everything(sqlite)).toBe(await everything(memory));
    // Half the rebuilds, then the rest: the overlay grows and merges at every step.
    for (const at of ['2026-11-25T00:00:00Z', '2026-12-31T00:00:00Z']) {
      const made = [memory.applyDue(Date.parse(at)), sqlite.applyDue(Date.parse(at))];
      expect(made[0]!.length).toBeGreaterThan(0);
      expect(made[1]).toEqual(made[0]);
      expect([sqlite.pendingCount(), sqlite.changeCount(), sqlite.asOf, sqlite.version]).toEqual([
        memory.pendingCount(),
        memory.changeCount(),
        memory.asOf,
        memory.version,
      ]);
      expect(await everything(sqlite)).toBe(await everything(memory));
    }
    sqlite.close();
  },
);

test('a generated dataset is built into the cache once, complete, and opened from there afterwards', () => {
  const options = { seed: 'cache-test', scale: 2_000, asOf: '2026-11-20T03:00:00Z' };
  // A half-built file left by a builder that is gone (pid 2^22 + 1 is
  // past Linux's highest) is removed; the builder's own name is used.
  const abandoned = `${cachedDatabaseFile(options, cache)}.4194305.building`;
  mkdirSync(cache, { recursive: true });
  writeFileSync(abandoned, 'half');
  const first = openCachedDatabase(options, { dir: cache });
  expect(existsSync(abandoned)).toBe(false);
  expect(first.builtMs).not.toBeNull();
  expect(first.file).toBe(cachedDatabaseFile(options, cache));
  first.db.close();
  const written = statSync(first.file);
  const again = openCachedDatabase(options, { dir: cache });
  expect(again.builtMs).toBeNull();
  expect(again.manifest).toEqual(first.manifest);
  expect(statSync(again.file)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  // Opened read-only: the cached dataset stays the dataset at its as-of, whatever a mock does.
  expect(() => again.db.exec('DELETE FROM firm')).toThrow(/readonly/);
  again.db.close();
  // Another seed, scale or time is another file.
  expect(cachedDatabaseFile({ ...options, scale: 2_001 }, cache)).not.toBe(first.file);
  expect(cachedDatabaseFile({ ...options, seed: 'other' }, cache)).not.toBe(first.file);
});

test(
  'a dump written by the worker thread from the database file ' +
    'has the bytes the engine writes from memory, rebuilds included',
  async () => {
    const options = { seed: 'dump-test', scale: 3_000, asOf: '2026-11-20T03:00:00Z' };
    const { db, manifest } = openCachedDatabase(options, { dir: cache });
    const sqlite = new SqliteStore(db, manifest);
    const memory = new MemoryStore(collectDataset(options));
    // Rebuilds over the following days: rows created, replaced and unpublished, in the overlay.
    for (const store of [sqlite, memory])
      expect(store.applyDue(Date.parse('2026-11-30T00:00:00Z')).length).toBeGreaterThan(10);
    const files = diskDumpFiles();
    try {
      const fromWorker = await new Dumps(sqlite, { files, writer: files.writer(sqlite) }).day('2026-11-29');
      const fromMemory = await new Dumps(memory).day('2026-11-29');
      const summary = (dump: typeof fromMemory) => dump.files.map(({ body: _body, ...file }) => file);
      expect(summary(fromWorker)).toEqual(summary(fromMemory));
      expect(fromWorker.files.every((f) => f.rows > 0 || f.resource === 'list')).toBe(true);
      // Served from disk: the Blob is the file the worker wrote.
      const investments = fromWorker.files.find((f) => f.resource === 'investment')!;
      expect(
        createHash('sha256')
          .update(new Uint8Array(await investments.body.arrayBuffer()))
          .digest('hex'),
      ).toBe(investments.sha256);
      expect(readdirSync(files.dir).length).toBe(resources.length);
    } finally {
      files.close();
      sqlite.close();
    }
    expect(existsSync(files.dir)).toBe(false);
  },
);
