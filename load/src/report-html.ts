/**
 * One page a person opens to read a load run, merged or not: the verdict, each threshold with its
 * figure, and over time the requests a second by scenario, latency percentiles, answers by status,
 * and the over-rate key's served answers against the plan's rate. Self-contained: SVG drawn here,
 * in the frame of the kit's other report pages (@investor-graph/cli/html-page: inline CSS, no
 * script, nothing loaded), so it opens offline and from an artifact store that forbids scripts.
 */
import { basename } from 'node:path';
import { escapeHtml as esc, html, Html, page } from '@investor-graph/cli/html-page';
import type { SummaryData, SummaryMetric } from '../lib/summary.js';
import { partMetric } from './parts.ts';
import type { Second } from './figures.ts';
import { histogram, SCALE } from './sinks.ts';
import type { Verdict } from './thresholds.ts';
import { chart, chartCss, short } from './report-chart.ts';
import type { MockWindow } from './mock-metrics.ts';
import { mockSection } from './report-mock.ts';

export interface ReportInput {
  planId: string;
  planName: string;
  rate: number;
  /** The over-rate key's served answers a second the thresholds allow on average (merged). */
  servedBound: number;
  p95Ms: number;
  parts: { segment: string; samplesFile: string; summaryFile: string; requests: number }[];
  data: SummaryData;
  verdicts: Verdict[];
  seconds: Map<number, Second>;
  first: number;
  last: number;
  /** The mock's own counts for the run's window (`--mock-metrics`), beside k6's. */
  mock?: MockWindow;
}

function figure(value: number | undefined, contains: SummaryMetric['contains'] | undefined, aggregation = ''): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (contains === 'time' && aggregation !== 'count')
    return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(2)} ms`;
  if (contains === 'data' && aggregation === 'rate') return `${figure(value, 'data')}/s`;
  if (contains === 'data')
    return value >= 1e6
      ? `${(value / 1e6).toFixed(1)} MB`
      : value >= 1e3
        ? `${(value / 1e3).toFixed(1)} kB`
        : `${Math.round(value)} B`;
  if (aggregation === 'rate' || !Number.isInteger(value)) return String(Number(value.toFixed(4)));
  return value.toLocaleString('en-US');
}

function metricValues(metric: SummaryMetric): string {
  return Object.entries(metric.values)
    .map(
      ([k, v]) =>
        `${k}=${metric.type === 'rate' && k === 'rate' ? `${(v * 100).toFixed(2)}%` : figure(v, metric.contains, k)}`,
    )
    .join(' ');
}

/** The run's seconds gathered into at most about 120 intervals, for the charts. */
function intervals(input: ReportInput) {
  const start = Math.floor(input.first / 1000);
  const end = Math.floor(input.last / 1000);
  const length = Math.max(1, end - start + 1);
  const interval = Math.max(1, Math.ceil(length / 120));
  const xs: number[] = [];
  const buckets: {
    seconds: number;
    scenario: Map<string, number>;
    status: Map<string, number>;
    served: number;
    limited: number;
    latency: ReturnType<typeof histogram>;
  }[] = [];
  for (let from = 0; from < length; from += interval) {
    const bucket = {
      seconds: Math.min(interval, length - from),
      scenario: new Map<string, number>(),
      status: new Map<string, number>(),
      served: 0,
      limited: 0,
      latency: histogram(2),
    };
    for (let s = from; s < from + interval && s < length; s++) {
      const second = input.seconds.get(start + s);
      if (!second) continue;
      for (const [k, v] of second.byScenario) bucket.scenario.set(k, (bucket.scenario.get(k) ?? 0) + v);
      for (const [k, v] of second.byStatus) bucket.status.set(k, (bucket.status.get(k) ?? 0) + v);
      bucket.served += second.burstServed;
      bucket.limited += second.burstLimited;
      if (second.latency.totalCount) bucket.latency.add(second.latency);
    }
    xs.push(from);
    buckets.push(bucket);
  }
  return { xs, buckets, interval };
}

export function renderReport(input: ReportInput): string {
  const { xs, buckets, interval } = intervals(input);
  const failed = input.verdicts.filter((v) => !v.ok);
  const scenarios = [...new Set(buckets.flatMap((b) => [...b.scenario.keys()]))].sort();
  const statuses = [...new Set(buckets.flatMap((b) => [...b.status.keys()]))].sort();
  const perSecond = (pick: (b: (typeof buckets)[number]) => number) => buckets.map((b) => pick(b) / b.seconds);
  const latency = (p: number) =>
    buckets.map((b) => (b.latency.totalCount ? b.latency.getValueAtPercentile(p) / SCALE : null));
  const hasBurst = scenarios.includes('above_rate');

  const charts = [
    chart(
      'Requests per second, by scenario',
      'req/s',
      xs,
      interval,
      scenarios.map((s) => ({ name: s, values: perSecond((b) => b.scenario.get(s) ?? 0) })),
    ),
    chart(
      'Latency of every request (http_req_duration)',
      'ms',
      xs,
      interval,
      [
        { name: 'p50', values: latency(50) },
        { name: 'p95', values: latency(95) },
        { name: 'p99', values: latency(99) },
      ],
      [{ value: input.p95Ms, label: `p(95) bound at the plan's rate: ${input.p95Ms} ms`, scale: false }],
    ),
    chart(
      'Answers by status, per second',
      'req/s',
      xs,
      interval,
      statuses.map((s) => ({
        name: s === '429' ? '429 (rate limited)' : s,
        values: perSecond((b) => b.status.get(s) ?? 0),
        color: s === '200' ? '#16a34a' : s === '429' ? '#ea580c' : s.startsWith('5') ? '#dc2626' : undefined,
      })),
    ),
    hasBurst
      ? chart(
          `The over-rate key (3x the plan's rate): answers served against the plan's ${input.rate} req/s`,
          'req/s',
          xs,
          interval,
          [
            { name: 'served (200)', values: perSecond((b) => b.served), color: '#16a34a' },
            { name: '429', values: perSecond((b) => b.limited), color: '#ea580c' },
          ],
          [
            { value: input.rate, label: `plan rate ${input.rate}/s` },
            { value: input.servedBound, label: `allowed on average ${short(input.servedBound)}/s` },
          ],
        )
      : '',
  ];

  const verdictRows = input.verdicts
    .map((v) => {
      const metric = input.data.metrics[v.metric];
      const aggregation = /^\s*([a-z]+(?:\([\d.]+\))?)/i.exec(v.expression)?.[1] ?? '';
      const shown = v.figure === undefined ? 'no sample' : figure(v.figure, metric?.contains, aggregation);
      return (
        `<tr class="${v.ok ? 'ok' : 'fail'}"><td>${v.ok ? 'passed' : 'FAILED'}</td>` +
        `<td><code>${esc(v.metric)}</code></td><td><code>${esc(v.expression)}</code></td><td>${esc(shown)}</td></tr>`
      );
    })
    .join('');
  const metricRows = Object.keys(input.data.metrics)
    .filter((n) => n !== partMetric)
    .sort()
    .map(
      (n) =>
        `<tr><td><code>${esc(n)}</code></td><td>${esc(input.data.metrics[n]!.type)}</td>` +
        `<td>${esc(metricValues(input.data.metrics[n]!))}</td></tr>`,
    )
    .join('');
  const checkRows = (input.data.root_group?.checks ?? [])
    .map(
      (c) =>
        `<tr class="${c.fails ? 'fail' : 'ok'}"><td>${esc(c.name)}</td><td>${c.passes}</td><td>${c.fails}</td></tr>`,
    )
    .join('');
  const partRows = input.parts
    .map(
      (p) =>
        `<tr><td><code>${esc(p.segment)}</code></td><td>${p.requests.toLocaleString('en-US')}</td>` +
        `<td><code>${esc(basename(p.samplesFile))}</code></td>` +
        `<td><code>${esc(basename(p.summaryFile))}</code></td></tr>`,
    )
    .join('');
  const requests = input.data.metrics.http_reqs?.values.count ?? 0;
  const seconds = (input.data.state?.testRunDurationMs ?? 0) / 1000;
  const title =
    `k6 ${input.planId}: ` +
    `${failed.length ? `${failed.length} threshold${failed.length > 1 ? 's' : ''} failed` : 'every threshold passed'}`;

  return page({
    title,
    heading: html`${input.planName} plan (<code>${input.planId}</code>): \
${input.parts.length > 1 ? `${input.parts.length} parts merged` : 'one run'}`,
    verdict: {
      ok: !failed.length,
      text: failed.length
        ? `FAILED: ${failed.length} of ${input.verdicts.length} thresholds`
        : `PASSED: ${input.verdicts.length} thresholds`,
    },
    note: html`<span class="muted">${requests.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s, from \
${new Date(input.first).toISOString()}; plan rate ${input.rate} req/s;
figures over every part's samples (percentiles from one distribution, to 0.1%)</span>`,
    css: chartCss,
    // Rows and charts are strings made here, every value in them through esc.
    body: new Html(`<h2>Thresholds</h2>
<table><tr><th></th><th>metric</th><th>threshold</th><th>figure</th></tr>${verdictRows}</table>
<h2>Over time</h2>
<p class="muted">Each point is ${interval === 1 ? 'one second' : `${interval} seconds`}; hover for the figures.</p>
${charts.join('\n')}
${mockSection(input.mock).text}
<h2>Parts</h2>
<table><tr><th>segment</th><th>requests</th><th>samples</th><th>summary</th></tr>${partRows}</table>
<h2>Checks</h2>
<table><tr><th>check</th><th>passed</th><th>failed</th></tr>${checkRows}</table>
<h2>Every metric</h2>
<table><tr><th>metric</th><th>type</th><th>figures</th></tr>${metricRows}</table>
<p class="muted">Written by investor-graph-load from k6's samples.</p>`),
  });
}
