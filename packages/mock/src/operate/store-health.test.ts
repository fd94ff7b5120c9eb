// @module-tag servers
/**
 * The state store's health in the metrics (#69): on a real redis-server of the test's own, the
 * commands' time, the failures while it is down and the reconnect once it is back; on an SQLite
 * state database, a lock held by another process counted as `busy`. Scraped and read by a parser
 * that is not ours.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../node.ts';
import { missing, startRedis } from '../stores/redis/servers.test-support.ts';
import { parseScrape, sampleValue } from './scrape.test-support.ts';

const temp = mkdtempSync(join(tmpdir(), 'ig-store-health-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const skipped = missing('redis-server');

const get = (mock: RunningMock, key: string) =>
  fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: { authorization: `Bearer ${key}` } });
const scrape = async (mock: RunningMock) => parseScrape((await mock.metrics!.scrape()).text);
/** The commands timed on `store`: the histogram's `_count` lines (the parser drops a histogram's labels). */
const commandsTimed = async (mock: RunningMock, store: string): Promise<number> =>
  (await mock.metrics!.scrape()).text
    .split('\n')
    .filter((l) => l.startsWith('investor_graph_mock_state_store_command_duration_seconds_count{'))
    .filter((l) => l.includes(`store="${store}"`))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);

test.skipIf(skipped)(
  'Redis: commands timed, failures counted while it is down, one reconnect once it is back' +
    (skipped ? ` (skipped: ${skipped})` : ''),
  async () => {
    const redis = await startRedis();
    const key = newKeyText('team');
    const mock = await startMock({ port: 0, stateFile: `${redis.url}?timeout=300`, keys: [{ plan: 'team', key }] });
    try {
      for (let i = 0; i < 3; i++) expect((await get(mock, key)).status).toBe(200);
      expect(await commandsTimed(mock, 'redis')).toBeGreaterThanOrEqual(3);
      let families = await scrape(mock);
      expect(sampleValue(families, 'investor_graph_mock_state_store_reconnects_total', { store: 'redis' })).toBe(0);
      expect(sampleValue(families, 'investor_graph_mock_state_store_errors_total', { store: 'redis' })).toBe(0);

      await redis.stop();
      expect((await get(mock, key)).status).toBe(503);
      // Down long enough for the client's attempts to reconnect (50 ms, then 100, 150...) to be refused.
      await new Promise((r) => setTimeout(r, 500));
      await redis.start();
      for (let i = 0; i < 200 && !mock.engine.accounts.store.describe().reachable; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect((await get(mock, key)).status).toBe(200);

      families = await scrape(mock);
      expect(sampleValue(families, 'investor_graph_mock_state_store_reconnects_total', { store: 'redis' })).toBe(1);
      const errors = (kind: string) =>
        sampleValue(families, 'investor_graph_mock_state_store_errors_total', { store: 'redis', kind });
      expect(errors('unavailable')).toBeGreaterThanOrEqual(1);
      expect(errors('connection')).toBeGreaterThanOrEqual(1);
      expect(errors('command')).toBe(0);
    } finally {
      await mock.close();
      await redis.close();
    }
  },
  60_000,
);

test('SQLite: a write lock held by another process is counted as a busy error', async () => {
  const state = join(temp, 'busy.db');
  const key = newKeyText('team');
  const mock = await startMock({ port: 0, stateFile: state, keys: [{ plan: 'team', key }] });
  const shell = new DatabaseSync(state);
  try {
    expect((await get(mock, key)).status).toBe(200);
    const kinds = async () =>
      (await scrape(mock))
        .get('investor_graph_mock_state_store_errors_total')!
        .metrics.map((m) => [m.labels?.store, m.labels?.kind, Number(m.value)]);
    expect(await kinds()).toEqual([]);
    shell.exec('BEGIN IMMEDIATE');
    expect((await get(mock, key)).status).toBe(503);
    shell.exec('ROLLBACK');
    expect(await kinds()).toEqual([['sqlite', 'busy', 1]]);
  } finally {
    if (shell.isTransaction) shell.exec('ROLLBACK');
    shell.close();
    await mock.close();
  }
});
