// @module-tag servers
/**
 * The round trip of `investor-graph-dataset sync`: a mock of a generated dataset copied into a
 * folder, and a mock started on that folder serving what the source served, operation by operation;
 * after the source's clock moves (rebuilds that create, update and unpublish), a second sync brings
 * the folder up to date through the changes feed alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { operations } from '@investor-graph/contract';
import { killAll, stop } from '../cli/cli-process.test-support.ts';
import { control, folder, notCompared, served, startMock, sync } from './sync.test-support.ts';

const temp = await mkdtemp(join(tmpdir(), 'ig-sync-round-trip-'));
afterAll(async () => {
  killAll();
  await rm(temp, { recursive: true, force: true });
});
const cache = join(temp, 'cache');
const key = 'igk_enterprise_sync_round_trip_0001';
// The comparison walks every list and record of both mocks at once: the copy is held to the data, not the rate.
const keyed = ['--key', `enterprise=${key}`, '--no-rate-limit'];

test(`a sync of a mock of another seed gives a folder that a third mock serves the same way: every list page by page, \
every record, every statistic and the changes feed`, async () => {
  const source = await startMock(cache, { seed: 'sync-round-trip' }, ...keyed);
  const out = join(temp, 'copy');
  const ran = await sync(['--base-url', source.url, '--out', out, '--yes', '--limit', '100'], key);
  expect(ran.status, ran.stderr).toBe(0);
  expect(ran.stdout.trim().split('\n')).toEqual([
    expect.stringMatching(/^synced http:\/\/127\.0\.0\.1:\d+ into .* as of 2026-11-20T03:00:00Z: [\d,]+ rows/),
  ]);
  const copy = await startMock(cache, { folder: out }, ...keyed);
  const [want, got] = await Promise.all([served(source.url, key), served(copy.url, key)]);
  expect([...got.keys()]).toEqual([...want.keys()]);
  for (const [path, body] of want) expect(got.get(path), path).toEqual(body);
  // Held to every data operation of the contract but those named with a reason.
  const asked = new Set([...want.keys()].map((path) => path.split('?')[0]!.replace(/\/api\/v1\//, '')));
  for (const op of operations.filter((o) => o.method === 'GET' && !(o.operationId in notCompared))) {
    const pattern = new RegExp(`^${op.path.replace('/api/v1/', '').replace(/\{\w+\}/g, '[^/]+')}$`);
    expect(
      [...asked].some((path) => pattern.test(path)),
      op.operationId,
    ).toBe(true);
  }
  expect(Object.keys(folder(out)).sort()).toEqual([
    '.gitignore',
    'NOTICE.md',
    'adv-funds.jsonl',
    'changes.jsonl',
    'companies.jsonl',
    'filings.jsonl',
    'firms.jsonl',
    'funds.jsonl',
    'investments.jsonl',
    'lists.jsonl',
    'manifest.json',
    'offerings.jsonl',
    'pending.jsonl',
    'rounds.jsonl',
    'sync-state.json',
  ]);
  await Promise.all([stop(source.child), stop(copy.child)]);
});

test(`after the source's clock moves, a second sync is incremental: the changes feed alone (creates, updates and \
unpublishes) brings the folder to what a new sync writes, and a mock on it serves what the source serves`, async () => {
  const source = await startMock(cache, { seed: 'sync-round-trip' }, ...keyed);
  const out = join(temp, 'incremental');
  const args = ['--base-url', source.url, '--yes', '--limit', '100'];
  expect((await sync([...args, '--out', out], key)).status).toBe(0);
  const moved = await control(source.url, '/clock/advance', { duration: 'P10D' });
  expect(moved.applied).toBeGreaterThan(0);
  await fetch(`${source.url}/__control/journal`, { method: 'DELETE' });

  const again = await sync([...args, '--out', out], key);
  expect(again.status, again.stderr).toBe(0);
  // Ten days of rebuilds: records created, updated and unpublished, each counted.
  expect(again.stdout).toMatch(/^updated .* as of 2026-11-30T03:00:00Z, incremental through the changes feed: /);
  expect(again.stdout).toMatch(/: [1-9]\d* created, [1-9]\d* updated, [1-9]\d* unpublished, in \d+ calls/);
  // The account, then the feed: no list walked again.
  const journal = (await (await fetch(`${source.url}/__control/journal?limit=1000`)).json()) as {
    entries: { operation: string }[];
  };
  expect(new Set(journal.entries.map((e) => e.operation))).toEqual(new Set(['getAccount', 'listChanges']));
  expect(journal.entries.length).toBeLessThanOrEqual(4);

  // The rows are what a new sync of the moved source writes, byte for byte (the feed's history differs:
  // the new sync keeps the 30 days before the new as-of).
  const fresh = join(temp, 'fresh');
  expect((await sync([...args, '--out', fresh], key)).status).toBe(0);
  const rows = (files: Record<string, string>) =>
    Object.fromEntries(Object.entries(files).filter(([name]) => name.endsWith('.jsonl') && name !== 'changes.jsonl'));
  expect(rows(folder(out))).toEqual(rows(folder(fresh)));

  const copy = await startMock(cache, { folder: out }, ...keyed);
  const [want, got] = await Promise.all([served(source.url, key), served(copy.url, key)]);
  for (const [path, body] of want) expect(got.get(path), path).toEqual(body);
  expect(got.size).toBe(want.size);
  await Promise.all([stop(source.child), stop(copy.child)]);
});
