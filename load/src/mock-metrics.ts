/**
 * The server's side of a load run, from the mock's own Prometheus metrics (`--mock-metrics URL`):
 * one scrape just before k6 starts and one just after it ends, and the difference of their counters
 * (calls by operation and status class, 429s and 402s by plan, rows served and charged by plan and
 * operation), set beside what k6 itself sent and received. The scrape is read with
 * parse-prometheus-text-format, a parser that is not the mock's. A scrape that fails is said, never
 * fatal: the run and its verdict are k6's.
 */
import { createRequire } from 'node:module';
import { redact } from '@investor-graph/cli/redact';
import type { Sample } from './samples.ts';

/** The mock's metric names (packages/mock/src/operate/metrics.ts). */
const names = {
  calls: 'investor_graph_mock_calls_total',
  refusals: 'investor_graph_mock_refusals_total',
  served: 'investor_graph_mock_rows_served_total',
  charged: 'investor_graph_mock_rows_charged_total',
} as const;

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}
const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

/** The counters of one scrape: by metric, the value of each label set (keyed by its labels in order). */
export type Counters = Map<string, Map<string, Delta>>;

/** What the mock counted between the two scrapes. */
export interface ServerCounts {
  calls: { operation: string; status_class: string; count: number }[];
  refusals: { plan: string; status: string; count: number }[];
  rows: { plan: string; operation: string; served: number; charged: number }[];
  totals: { calls: number; rows_served: number; rows_charged: number; refused_429: number; refused_402: number };
}

/** What k6 sent in the run: requests of the data API (what the mock counts) and to its control API (it does not). */
export interface ClientCounts {
  requests: number;
  control: number;
  by_status_class: Record<string, number>;
  received_429: number;
}

/** The run's window on the mock: the `<plan>.mock.json` beside the run's files. */
export interface MockWindow {
  /** The URL scraped, without credentials, query or fragment. */
  source: string;
  /** When the scrape before k6 was sent, and when the one after it was answered (ISO 8601). */
  from: string;
  to: string;
  /** Why there are no server-side counts (a scrape failed, the mock restarted), when there are none. */
  error?: string;
  server?: ServerCounts;
  client?: ClientCounts;
}

/** The URL as the report shows it: no user, password, query or fragment, where a token could be. */
export function shownUrl(url: string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  shown.hash = '';
  return redact(shown.href);
}

/** Why `url` cannot be a metrics URL (a usage error), or null. Never inferred: the user gives it whole. */
export function metricsUrlProblem(url: string): string | null {
  if (!URL.canParse(url)) return `--mock-metrics ${url} is not a URL: give the mock's metrics URL`;
  const protocol = new URL(url).protocol;
  return protocol === 'http:' || protocol === 'https:'
    ? null
    : `--mock-metrics must be an http(s) URL, not ${protocol}`;
}

/** The mock's counters at `url`, or why not (one line, no key in it). */
export async function scrape(url: string, timeoutMs = 10_000): Promise<Counters | string> {
  let text: string;
  try {
    const res = await fetch(url, { headers: { accept: 'text/plain' }, signal: AbortSignal.timeout(timeoutMs) });
    text = await res.text();
    if (res.status === 403 || res.status === 401)
      return (
        `${shownUrl(url)} answered ${res.status}: the mock's control plane answers only a loopback caller ` +
        '(or its admin token); from another host give its --metrics-port URL (http://HOST:PORT/metrics)'
      );
    if (!res.ok) return `${shownUrl(url)} answered ${res.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : cause?.code;
    return redact(`cannot scrape ${shownUrl(url)} (${why ?? cause?.message ?? (error as Error).message})`);
  }
  const counters = countersOf(text);
  return typeof counters === 'string' ? redact(`${shownUrl(url)}: ${counters}`) : counters;
}

/** The mock's counters in a scrape's text, or why they are not there. */
export function countersOf(text: string): Counters | string {
  let families: Family[];
  try {
    families = parse(text);
  } catch (error) {
    return `not Prometheus's text format (${(error as Error).message})`;
  }
  if (!families.some((f) => f.name === names.calls))
    return `no ${names.calls}: not the mock's metrics (or the mock runs with --no-metrics)`;
  const counters: Counters = new Map();
  for (const family of families) {
    if (!(Object.values(names) as string[]).includes(family.name)) continue;
    const series = new Map<string, Delta>();
    for (const m of family.metrics) {
      const value = Number(m.value === '' ? NaN : m.value);
      if (!Number.isFinite(value)) return `${family.name} has the value ${m.value}, not a number`;
      const labels = m.labels ?? {};
      series.set(JSON.stringify(Object.entries(labels).sort()), { labels, value });
    }
    counters.set(family.name, series);
  }
  return counters;
}

/**
 * The counts of the window between two scrapes: each counter's value after less its value before
 * (0 for a label set first seen after). A counter lower after than before means the mock restarted
 * in between, and the window's counts are unknown: said, not guessed.
 */
export function countsBetween(before: Counters, after: Counters): ServerCounts | string {
  const deltas = (name: string): Delta[] | null => {
    const out: Delta[] = [];
    const was = before.get(name) ?? new Map<string, Delta>();
    const now = after.get(name) ?? new Map<string, Delta>();
    for (const [id, series] of now) {
      const value = series.value - (was.get(id)?.value ?? 0);
      if (value < 0) return null;
      if (value > 0) out.push({ labels: series.labels, value });
    }
    return [...was.keys()].every((id) => now.has(id)) ? out : null;
  };
  const [calls, refusals, served, charged] = [names.calls, names.refusals, names.served, names.charged].map(deltas);
  if (!calls || !refusals || !served || !charged)
    return (
      "a counter of the mock's went down between the two scrapes: the mock restarted during the run, so its " +
      'counts are unknown'
    );
  const rows = new Map<string, { plan: string; operation: string; served: number; charged: number }>();
  for (const [list, field] of [
    [served, 'served'],
    [charged, 'charged'],
  ] as const)
    for (const { plan, operation, count } of group(list, ['plan', 'operation'])) {
      const row = rows.get(`${plan} ${operation}`) ?? { plan, operation, served: 0, charged: 0 };
      row[field] += count;
      rows.set(`${plan} ${operation}`, row);
    }
  const sum = (list: Delta[], where: (labels: Record<string, string>) => boolean = () => true) =>
    list.reduce((total, s) => total + (where(s.labels) ? s.value : 0), 0);
  return {
    calls: group(calls, ['operation', 'status_class']),
    refusals: group(refusals, ['plan', 'status']),
    rows: [...rows.keys()].sort().map((id) => rows.get(id)!),
    totals: {
      calls: sum(calls),
      rows_served: sum(served),
      rows_charged: sum(charged),
      refused_429: sum(refusals, (l) => l.status === '429'),
      refused_402: sum(refusals, (l) => l.status === '402'),
    },
  };
}

type Delta = { labels: Record<string, string>; value: number };

/** Counts added up by the labels `fields` (the others summed over), in the order of those labels. */
function group<F extends string>(list: Delta[], fields: readonly F[]): (Record<F, string> & { count: number })[] {
  const out = new Map<string, Record<F, string> & { count: number }>();
  for (const { labels, value } of list) {
    const key = Object.fromEntries(fields.map((f) => [f, labels[f] ?? 'none'])) as Record<F, string>;
    const id = fields.map((f) => key[f]).join(' ');
    const row = out.get(id) ?? { ...key, count: 0 };
    row.count += value;
    out.set(id, row);
  }
  return [...out.keys()].sort().map((id) => out.get(id)!);
}

/** k6's side, tallied from its samples: every request, those to /__control apart (the mock counts none of them). */
export class ClientTally {
  private readonly counts: ClientCounts = { requests: 0, control: 0, by_status_class: {}, received_429: 0 };
  add(s: Sample): void {
    if (s.metric !== 'http_reqs') return;
    const path = URL.canParse(s.tags.url ?? '') ? new URL(s.tags.url!).pathname : '';
    if (/^\/__control(\/|$)/.test(path)) {
      this.counts.control += s.value;
      return;
    }
    this.counts.requests += s.value;
    const status = Number(s.tags.status ?? 0);
    const status_class = `${Math.floor(status / 100)}xx`;
    this.counts.by_status_class[status_class] = (this.counts.by_status_class[status_class] ?? 0) + s.value;
    if (status === 429) this.counts.received_429 += s.value;
  }
  result(): ClientCounts {
    return this.counts;
  }
}

export interface OpenWindow {
  url: string;
  from: Date;
  before: Counters | string;
}

/** The scrape before k6 starts: the window's start. */
export async function openWindow(url: string): Promise<OpenWindow> {
  // What came before (the run's own checks of the service) is journaled before `from`, never in
  // its millisecond, so that a window by time holds the run's calls alone.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const from = new Date();
  return { url, from, before: await scrape(url) };
}

/** The scrape after k6 ended, and the window's counts (or why there are none). */
export async function closeWindow(open: OpenWindow): Promise<MockWindow> {
  const after = await scrape(open.url);
  const window = { source: shownUrl(open.url), from: open.from.toISOString(), to: new Date().toISOString() };
  if (typeof open.before === 'string') return { ...window, error: `the scrape before the run failed: ${open.before}` };
  if (typeof after === 'string') return { ...window, error: `the scrape after the run failed: ${after}` };
  const server = countsBetween(open.before, after);
  return typeof server === 'string' ? { ...window, error: server } : { ...window, server };
}

/** `<plan>.mock.json` beside a run's files: the window of the run whose samples span `first` to `last`, or none. */
export function mockWindowOf(text: string | undefined, first: number, last: number): MockWindow | undefined {
  if (text === undefined) return undefined;
  try {
    const window = JSON.parse(text) as MockWindow;
    // An earlier run's file left in the folder: its window does not hold this run's samples.
    return Date.parse(window.from) <= first && last <= Date.parse(window.to) ? window : undefined;
  } catch {
    return undefined;
  }
}
