// @module-tag servers
/**
 * The Grafana dashboard in deploy/grafana/ asks only for metrics the mock exports: every metric
 * name its queries name is in a real scrape of a running mock (its HELP and TYPE at least); and
 * every family of the mock's own is on one of its panels.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMock, type RunningMock } from '../node.ts';

const dashboard = JSON.parse(
  readFileSync(new URL('../../../../deploy/grafana/mock-dashboard.json', import.meta.url), 'utf8'),
) as { panels: { title: string; targets: { expr: string }[] }[] };
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

/** The metric names a PromQL expression reads (a histogram's series named as its family). */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(investor_graph_mock_[a-z_]+|nodejs_[a-z_]+|process_[a-z_]+)\b/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|sum|count)$/, ''));
}

function missing(text: string): string[] {
  const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  return dashboard.panels.flatMap((p) =>
    p.targets.flatMap((t) =>
      metricNames(t.expr)
        .filter((n) => !exported.has(n))
        .map((n) => `${p.title}: ${n}`),
    ),
  );
}

test('every metric the dashboard queries is one the mock exports', async () => {
  const text = await (await fetch(`${mock.url}/__control/metrics`)).text();
  expect(dashboard.panels.length).toBeGreaterThan(5);
  expect(missing(text)).toEqual([]);
});

test('a dashboard query of a metric the mock does not export is found', async () => {
  const text = await (await fetch(`${mock.url}/__control/metrics`)).text();
  expect(missing(text.replace(/^# TYPE investor_graph_mock_refusals_total .*$/m, ''))).toEqual([
    '429 and 402 by plan: investor_graph_mock_refusals_total',
  ]);
});

/** The mock's own families (its prefix) that no panel queries. */
function unshown(text: string, panels = dashboard.panels): string[] {
  const queried = new Set(panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr))));
  const own = [...text.matchAll(/^# TYPE (investor_graph_mock_\S+) /gm)].map((m) => m[1]!);
  return own.filter((n) => !queried.has(n));
}

test('every family of the mock’s own is on a panel of the dashboard', async () => {
  const text = await (await fetch(`${mock.url}/__control/metrics`)).text();
  expect(unshown(text)).toEqual([]);
  const withoutStore = dashboard.panels.filter((p) => !p.title.startsWith('State store:'));
  expect(unshown(text, withoutStore)).toEqual([
    'investor_graph_mock_state_store_errors_total',
    'investor_graph_mock_state_store_command_duration_seconds',
    'investor_graph_mock_state_store_reconnects_total',
  ]);
});
