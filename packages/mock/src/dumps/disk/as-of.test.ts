// @module-tag servers
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { collectDataset, resources, type DatasetOptions, type Row } from '@investor-graph/dataset-tools';
import { openCachedDatabase } from '@investor-graph/dataset-tools/database';
import { Dumps, MemoryStore, type Dump } from '@investor-graph/engine/adapter';
import { diskDumpFiles } from './files.ts';
import { SqliteStore } from '../../stores/sqlite/dataset-store.ts';
import { startMock } from '../../cli/start-mock.ts';

const folder = mkdtempSync(join(tmpdir(), 'ig-dump-as-of-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A day's files as what the manifest lists of them, and each file's rows. */
async function read(dump: Dump) {
  const rows = new Map<string, Row[]>();
  for (const file of dump.files) {
    const text = gunzipSync(new Uint8Array(await file.body.arrayBuffer())).toString('utf8');
    rows.set(
      file.resource,
      text
        ? text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line) as Row)
        : [],
    );
  }
  return { listed: dump.files.map(({ body: _body, ...file }) => file), rows };
}

/** The rows of a dump first seen after its generated_at, by resource and key. */
const seenAfter = (generatedAt: string, rows: Map<string, Row[]>) =>
  [...rows].flatMap(([resource, list]) =>
    list
      .filter((row) => Date.parse(row.first_seen_at as string) > Date.parse(generatedAt))
      .map((row) => `${resource} ${row.service_url as string}`),
  );

/** The same generated dataset as the worker reads it (a database file) and as the engine holds it (memory). */
function stores(options: DatasetOptions) {
  const { db, manifest } = openCachedDatabase(options, { dir: join(folder, 'datasets') });
  const sqlite = new SqliteStore(db, manifest);
  const memory = new MemoryStore(collectDataset(options));
  const files = diskDumpFiles(folder);
  const dumps = { worker: new Dumps(sqlite, { files, writer: files.writer(sqlite) }), memory: new Dumps(memory) };
  return { sqlite, memory, dumps, close: () => (files.close(), sqlite.close()) };
}

test(
  "a past day's dump written by the worker from a database file holds the data as of its generated_at, " +
    'the bytes the engine writes from memory, before and after rebuilds',
  async () => {
    const { sqlite, memory, dumps, close } = stores({ seed: 'dump-as-of', scale: 3_000, asOf: '2026-11-20T03:00:00Z' });
    try {
      const before = await read(await dumps.worker.day('2026-11-19'));
      expect(seenAfter('2026-11-19T04:00:00Z', before.rows)).toEqual([]);
      expect(before.listed).toEqual((await read(await dumps.memory.day('2026-11-19'))).listed);
      // Rebuilds over the following days: the 23rd's dump is as of its 04:00, what came later undone.
      for (const store of [sqlite, memory]) store.applyDue(Date.parse('2026-11-26T12:00:00Z'));
      const [worker, engine] = [await dumps.worker.day('2026-11-23'), await dumps.memory.day('2026-11-23')];
      const after = await read(worker);
      expect(seenAfter(worker.generated_at, after.rows)).toEqual([]);
      expect(after.listed).toEqual((await read(engine)).listed);
      const fresh = stores({ seed: 'dump-as-of', scale: 3_000, asOf: '2026-11-20T03:00:00Z' });
      try {
        fresh.sqlite.applyDue(Date.parse('2026-11-23T04:00:00Z'));
        // Written while the data stood at that 04:00: the same bytes.
        expect((await read(await fresh.dumps.worker.day('2026-11-23'))).listed).toEqual(after.listed);
      } finally {
        fresh.close();
      }
    } finally {
      close();
    }
  },
);

test('a database whose changes feed does not reach back to a day leaves out the rows first seen after it', async () => {
  // No history: the feed starts at the data's as-of, after the day.
  const { memory, dumps, close } = stores({
    seed: 'dump-as-of',
    scale: 3_000,
    asOf: '2026-11-20T03:00:00Z',
    historyDays: 0,
  });
  try {
    const worker = await read(await dumps.worker.day('2026-10-01'));
    expect(seenAfter('2026-10-01T04:00:00Z', worker.rows)).toEqual([]);
    expect(worker.listed).toEqual((await read(await dumps.memory.day('2026-10-01'))).listed);
    // Rows the data holds were first seen after that day: left out, not merely absent from the start.
    const held = [...worker.rows.values()].reduce((n, rows) => n + rows.length, 0);
    expect(held).toBeLessThan(resources.reduce((n, r) => n + memory.count(r.name), 0));
  } finally {
    close();
  }
});

test("the server's manifest lists past days of the embedded dataset holding no row first seen after them", async () => {
  const key = 'igk_enterprise_dumpasoftest000000000000000';
  const mock = await startMock({ port: 0, keys: [{ plan: 'enterprise', key }], dumpCache: false });
  try {
    const get = (url: string) => fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const manifest = (await (await get(`${mock.url}/api/v1/exports`)).json()) as {
      data: { generated_at: string; files: { name: string; url: string }[] }[];
    };
    expect(manifest.data.map((day) => day.generated_at)).toEqual(['2026-11-19T04:00:00Z', '2026-11-18T04:00:00Z']);
    for (const day of manifest.data) {
      const rows = new Map<string, Row[]>();
      for (const file of day.files) {
        const text = gunzipSync(new Uint8Array(await (await get(file.url)).arrayBuffer())).toString('utf8');
        rows.set(
          file.name,
          text
            ? text
                .trimEnd()
                .split('\n')
                .map((line) => JSON.parse(line) as Row)
            : [],
        );
      }
      expect(seenAfter(day.generated_at, rows), day.generated_at).toEqual([]);
      // The data as of then: the round first seen at 02:00 on the 20th is not in it yet.
      expect(rows.get('rounds.jsonl.gz')!.some((round) => round.id === 'rnd_j6mgyg8c9gz8')).toBe(false);
    }
  } finally {
    await mock.close();
  }
});
