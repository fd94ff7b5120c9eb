// @module-tag servers
/**
 * The validation proxy's metrics (#69): a real proxy (the CLI's process, `--metrics-port`) in front
 * of a real mock that breaks one rule on purpose (`--fault problem-without-code`), scraped and read
 * by a parser that is not ours: the exchanges by operation and status class and the violations by
 * rule and operation are what the test sent and what the proxy's own header said.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newKeyText } from '@investor-graph/engine';
import { startMock, type RunningMock } from '../node.ts';
import { killAll, start, stop } from '../cli/cli-process.test-support.ts';
import { parseScrape, sampleValue } from './scrape.test-support.ts';

const team = newKeyText('team');
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [{ plan: 'team', key: team }], faults: ['problem-without-code'] });
});
afterAll(async () => {
  killAll();
  await mock.close();
});

test('N exchanges through the proxy count N by operation and status class, a violation by its rule', async () => {
  const proxy = await start('proxy', mock.url, '--metrics-port', '0', '--report', '/dev/null', '--junit', '/dev/null');
  const metricsUrl = /metrics: (http:\/\/[^\s]+\/metrics)/.exec(proxy.output())![1]!;
  const get = async (path: string, key?: string) => {
    const answer = await fetch(`${proxy.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
    await answer.arrayBuffer();
    return answer;
  };
  for (let i = 0; i < 3; i++)
    expect((await get('/api/v1/firms?limit=2', team)).headers.has('sl-violations')).toBe(false);
  const broken = await get('/api/v1/firms?limit=2');
  expect(broken.status).toBe(401);
  const said = JSON.parse(broken.headers.get('sl-violations')!) as { code: string }[];
  expect(said.map((v) => v.code)).toContain('problem');
  const nowhere = await get('/api/v1/nowhere', team);
  expect(nowhere.status).toBe(404);
  const offContract = JSON.parse(nowhere.headers.get('sl-violations') ?? '[]') as { code: string }[];

  const scraped = await fetch(metricsUrl);
  expect(scraped.status).toBe(200);
  const families = parseScrape(await scraped.text());
  const exchanges = 'investor_graph_mock_proxy_exchanges_total';
  const violations = 'investor_graph_mock_proxy_violations_total';
  expect(sampleValue(families, exchanges, { operation: 'listFirms', status_class: '2xx' })).toBe(3);
  expect(sampleValue(families, exchanges, { operation: 'listFirms', status_class: '4xx' })).toBe(1);
  expect(sampleValue(families, exchanges, { operation: 'none', status_class: '4xx' })).toBe(1);
  for (const [operation, seen] of [
    ['listFirms', said],
    ['none', offContract],
  ] as const)
    for (const rule of new Set(seen.map((v) => v.code)))
      expect(sampleValue(families, violations, { rule, operation }), rule).toBe(
        seen.filter((v) => v.code === rule).length,
      );
  const all = families.get(violations)!.metrics.reduce((sum, m) => sum + Number(m.value), 0);
  expect(all).toBe(said.length + offContract.length);
  // No path, key or request id in any label: only bounded values.
  for (const family of [exchanges, violations])
    for (const sample of families.get(family)!.metrics)
      expect(Object.values(sample.labels ?? {}).join(' ')).toMatch(/^[A-Za-z0-9_ -]+$/);
  expect(await stop(proxy.child)).toBe(1);
});
