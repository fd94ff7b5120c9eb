// @module-tag servers
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { resources } from '@investor-graph/dataset-tools';
import { openCachedDatabase } from '@investor-graph/dataset-tools/database';
import { Dumps, type Dump } from '@investor-graph/engine/adapter';
import { DumpCache } from './cache.ts';
import { diskDumpFiles } from './files.ts';
import { SqliteStore } from '../../stores/sqlite/dataset-store.ts';
import { startMock } from '../../cli/start-mock.ts';

const folder = mkdtempSync(join(tmpdir(), 'ig-dump-cache-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const dataset = { seed: 'dump-cache', scale: 2_000, asOf: '2026-11-20T03:00:00Z' };
const datasets = join(folder, 'datasets');
const { file: database } = openCachedDatabase(dataset, { dir: datasets });

/** A store on the dataset's database and the dumps a start makes of it, kept in `cacheDir`. */
function opened(cacheDir: string) {
  const { db, manifest } = openCachedDatabase(dataset, { dir: datasets });
  const store = new SqliteStore(db, manifest);
  const files = diskDumpFiles(join(folder), new DumpCache(cacheDir));
  const dumps = new Dumps(store, { files, writer: files.writer(store) });
  return { store, dumps, close: () => (files.close(), store.close()) };
}

const listed = (dump: Dump) => dump.files.map(({ body: _body, ...file }) => file);
const entries = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
    : [];

test('a later start on the same database serves the dump files kept by an earlier one, not written again', async () => {
  const cacheDir = join(folder, 'kept');
  const first = opened(cacheDir);
  const written = await first.dumps.day('2026-11-20');
  // Each kept file's bytes are those the manifest lists (read while the mock runs: its files go with it).
  for (const file of written.files)
    expect(
      createHash('sha256')
        .update(new Uint8Array(await file.body.arrayBuffer()))
        .digest('hex'),
    ).toBe(file.sha256);
  first.close();
  expect(entries(cacheDir)).toHaveLength(resources.length);

  // Swap a kept file's bytes (same size) and its meta's hash: a later
  // start that served what it wrote itself would not show them.
  const firms = readdirSync(cacheDir).find(
    (name) => name.endsWith('.json') && JSON.parse(readFileSync(join(cacheDir, name), 'utf8')).table === 'firm',
  )!;
  const key = firms.slice(0, -'.json'.length);
  const size = statSync(join(cacheDir, `${key}.jsonl.gz`)).size;
  const swapped = Buffer.alloc(size, 7);
  writeFileSync(join(cacheDir, `${key}.jsonl.gz`), swapped);
  const meta = JSON.parse(readFileSync(join(cacheDir, firms), 'utf8'));
  writeFileSync(join(cacheDir, firms), JSON.stringify({ ...meta, sha256: 'swapped' }));

  const second = opened(cacheDir);
  try {
    const served = await second.dumps.day('2026-11-21');
    const firmsFile = served.files.find((f) => f.resource === 'firm')!;
    expect(firmsFile.sha256).toBe('swapped');
    expect(Buffer.from(await firmsFile.body.arrayBuffer()).equals(swapped)).toBe(true);
    expect(listed(served).filter((f) => f.resource !== 'firm')).toEqual(
      listed(written).filter((f) => f.resource !== 'firm'),
    );
  } finally {
    second.close();
  }
});

test(
  'rows changed by rebuilds make new files; the files with no overlay (every ' +
    'start wants them) and the two newest (a manifest lists two days) stay',
  async () => {
    const cacheDir = join(folder, 'overlay');
    const atStart = opened(cacheDir);
    const start = await atStart.dumps.day('2026-11-20');
    expect(atStart.store.applyDue(Date.parse('2026-11-24T00:00:00Z')).length).toBeGreaterThan(10);
    const later = await atStart.dumps.day('2026-11-23');
    expect(listed(later).find((f) => f.resource === 'investment')!.sha256).not.toBe(
      listed(start).find((f) => f.resource === 'investment')!.sha256,
    );
    expect(atStart.store.applyDue(Date.parse('2026-11-28T00:00:00Z')).length).toBeGreaterThan(10);
    const latest = await atStart.dumps.day('2026-11-27');
    expect(atStart.store.applyDue(Date.parse('2026-12-02T00:00:00Z')).length).toBeGreaterThan(0);
    const newest = await atStart.dumps.day('2026-12-01');
    // The two days a manifest lists now can still be downloaded, whole.
    for (const dump of [latest, newest]) {
      const file = dump.files.find((f) => f.resource === 'investment')!;
      expect(
        createHash('sha256')
          .update(new Uint8Array(await file.body.arrayBuffer()))
          .digest('hex'),
      ).toBe(file.sha256);
    }
    atStart.close();
    const kept = entries(cacheDir).map(
      (name) =>
        JSON.parse(readFileSync(join(cacheDir, name), 'utf8')) as {
          table: string;
          overlayRows: number;
          sha256: string;
        },
    );
    const investments = kept.filter((m) => m.table === 'investment');
    const sha = (dump: Dump) => dump.files.find((f) => f.resource === 'investment')!.sha256;
    expect(investments.map((m) => m.sha256).sort()).toEqual([start, latest, newest].map(sha).sort());
    expect(investments.find((m) => m.sha256 === sha(start))!.overlayRows).toBe(0);
    expect(investments.some((m) => m.sha256 === sha(later))).toBe(false);
  },
);

test('the files of a database that changed are not served, and go at the next sweep', async () => {
  const cacheDir = join(folder, 'changed');
  const first = opened(cacheDir);
  await first.dumps.day('2026-11-20');
  first.close();
  const before = entries(cacheDir);
  // The same database written again (a newer time): what was kept of it may no longer be its rows.
  const later = new Date(statSync(database).mtimeMs + 60_000);
  utimesSync(database, later, later);
  const again = opened(cacheDir);
  try {
    await again.dumps.day('2026-11-20');
  } finally {
    again.close();
  }
  const after = entries(cacheDir);
  expect(after).toHaveLength(resources.length);
  expect(after.filter((name) => before.includes(name))).toEqual([]);
});

test('a mock stopped while a dump is written leaves no half-written file in the cache', async () => {
  const cacheDir = join(folder, 'stopped');
  const { dumps, close } = opened(cacheDir);
  const day = dumps.day('2026-11-20');
  day.catch(() => undefined);
  // Until a worker is writing (the first file of the build, under its temporary name).
  const writing = () => existsSync(cacheDir) && readdirSync(cacheDir).some((name) => name.endsWith('.tmp'));
  for (let i = 0; i < 400 && !writing(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(writing()).toBe(true);
  close();
  await expect(day).rejects.toThrow();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(readdirSync(cacheDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});

test(
  "the server writes a database-backed dataset's dump ahead, " +
    'at start; with dumpsAhead false, only when a manifest asks',
  async () => {
    for (const ahead of [true, false]) {
      const cacheDir = join(folder, `server-${ahead}`);
      const mock = await startMock({
        port: 0,
        seed: dataset.seed,
        scale: dataset.scale,
        datasetCache: datasets,
        dumpCache: cacheDir,
        dumpsAhead: ahead,
        keys: [{ plan: 'enterprise', key: 'igk_enterprise_dumpcachetest0000000000000000' }],
      });
      try {
        // Bounded wait for what the start writes by itself: a few hundred ms at 2,000 rows, past five
        // seconds on a busy machine (so up to 30 s); 5 s to see that a start without it writes nothing.
        for (let i = 0; i < (ahead ? 600 : 100) && entries(cacheDir).length < resources.length; i++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(entries(cacheDir)).toHaveLength(ahead ? resources.length : 0);
        const answer = await fetch(`${mock.url}/api/v1/exports`, {
          headers: { authorization: 'Bearer igk_enterprise_dumpcachetest0000000000000000' },
        });
        expect(answer.status).toBe(200);
        const body = (await answer.json()) as { data: { files: { sha256: string }[] }[] };
        expect(entries(cacheDir)).toHaveLength(resources.length);
        const kept = entries(cacheDir)
          .map((name) => JSON.parse(readFileSync(join(cacheDir, name), 'utf8')).sha256 as string)
          .sort();
        expect(body.data[0]!.files.map((f) => f.sha256).sort()).toEqual(kept);
      } finally {
        await mock.close();
      }
    }
  },
);

test(
  'a kept file another mock sweeps from the cache (or a rebuilt database ' +
    'takes with it) still downloads whole from a mock that lists it',
  async () => {
    const cacheDir = join(folder, 'swept');
    const { dumps, close } = opened(cacheDir);
    try {
      const day = await dumps.day('2026-11-20');
      for (const name of readdirSync(cacheDir)) rmSync(join(cacheDir, name));
      for (const file of day.files)
        expect(
          createHash('sha256')
            .update(new Uint8Array(await file.body.arrayBuffer()))
            .digest('hex'),
        ).toBe(file.sha256);
    } finally {
      close();
    }
  },
);
