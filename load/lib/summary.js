// JUnit from k6's summary data, written by the kit itself: no remote import (test machines may be offline).

const escape = (s) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * One testcase per threshold; a failed threshold is a failure. `stopped` (why the run stopped
 * before its scenarios) makes a failed case of its own, and every threshold a skipped one: judged
 * on nothing, none of them held.
 */
export function junit(data, suite, stopped) {
  const cases = [];
  if (stopped)
    cases.push(
      `    <testcase classname="${escape(suite)}" name="the run reached its scenarios">` +
        `<failure message="${escape(stopped)}">${escape(stopped)}</failure></testcase>`,
    );
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [expr, result] of Object.entries(metric.thresholds || {})) {
      const values = escape(JSON.stringify(metric.values));
      const outcome = stopped
        ? '<skipped message="not judged: the run stopped before its scenarios"/>'
        : result.ok
          ? ''
          : `<failure message="threshold failed">${values}</failure>`;
      cases.push(
        `    <testcase classname="${escape(suite)}" name="${escape(`${name} ${expr}`)}">${outcome}</testcase>`,
      );
    }
  }
  const failures = cases.filter((c) => c.includes('<failure')).length;
  const skipped = cases.filter((c) => c.includes('<skipped')).length;
  // errors is required on <testsuite> by the JUnit schema strict readers (Jenkins) check against,
  // which allows skipped there and not on <testsuites>.
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${cases.length}" failures="${failures}" errors="0">\n` +
    `  <testsuite name="${escape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" ` +
    `skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
  );
}

// k6 prints its own end-of-test summary only when handleSummary returns nothing (its
// internal/js/summary-wrapper.js), and the function behind it is inside the k6 binary: a script can
// reach it only as a remote import from jslib.k6.io. The kit needs handleSummary for its files, so it
// renders the same summary from the same data: the checks, then every metric with k6's figures for
// it (summaryTrendStats for trends), a threshold's metric marked ✓ or ✗.

const pad = (s, n) => s + ' ' + '.'.repeat(Math.max(0, n - s.length - 1));

/** A figure as k6 shows it: durations in ms, µs or s, data in B, kB or MB. */
function figure(value, contains) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  if (contains === 'time') {
    if (value === 0) return '0s';
    if (value >= 1000) return `${(value / 1000).toFixed(2)}s`;
    if (value >= 1) return `${value.toFixed(2)}ms`;
    return `${(value * 1000).toFixed(2)}µs`;
  }
  if (contains === 'data') {
    if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB`;
    if (value >= 1e3) return `${(value / 1e3).toFixed(1)} kB`;
    return `${value} B`;
  }
  return Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/\.?0+$/, '');
}

function values(metric, trendStats) {
  const v = metric.values;
  switch (metric.type) {
    case 'trend':
      return trendStats
        .filter((s) => s in v)
        .map((s) => `${s}=${s === 'count' ? v[s] : figure(v[s], metric.contains)}`)
        .join(' ');
    case 'counter':
      return `${figure(v.count, metric.contains)} ${figure(v.rate, metric.contains === 'data' ? 'data' : 'default')}/s`;
    case 'rate':
      return `${(v.rate * 100).toFixed(2)}% ${v.passes} out of ${v.passes + v.fails}`;
    default:
      const [value, min, max] = [v.value, v.min, v.max].map((x) => figure(x, metric.contains));
      return `${value} min=${min} max=${max}`;
  }
}

function checksOf(group, depth, lines) {
  const indent = '  '.repeat(depth + 2);
  if (group.name) lines.push(`${indent}█ ${group.name}`);
  for (const c of group.checks || []) {
    lines.push(`${indent}  ${c.fails ? '✗' : '✓'} ${c.name}`);
    if (c.fails)
      lines.push(
        `${indent}    ↳ ${Math.floor((c.passes / (c.passes + c.fails)) * 100)}% — ✓ ${c.passes} / ✗ ${c.fails}`,
      );
  }
  for (const g of group.groups || []) checksOf(g, depth + 1, lines);
  return lines;
}

/** k6's end-of-test summary of `data`, as k6 prints it by default. */
export function k6Summary(data) {
  const lines = checksOf(data.root_group || {}, 0, []);
  const trendStats = (data.options && data.options.summaryTrendStats) || ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
  // The part marker (plan-test.js) is for investor-graph-load merge, not for people.
  const names = Object.keys(data.metrics)
    .filter((n) => n !== 'investor_graph_part')
    .sort();
  const width = Math.max(...names.map((n) => n.length)) + 4;
  if (lines.length) lines.push('');
  for (const name of names) {
    const metric = data.metrics[name];
    const verdicts = Object.values(metric.thresholds || {});
    const mark = verdicts.length ? (verdicts.every((t) => t.ok) ? '✓' : '✗') : ' ';
    lines.push(`   ${mark} ${pad(name, width)}: ${values(metric, trendStats)}`);
  }
  const state = data.state || {};
  if (state.testRunDurationMs !== undefined)
    lines.push('', `     running (${figure(state.testRunDurationMs, 'time')})`);
  return `\n${lines.join('\n')}\n`;
}

/** Each threshold of `data`, `ok` or `FAIL`, one a line (indented), as the kit's summaries list them. */
export function thresholdLines(data) {
  const lines = [];
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [expr, result] of Object.entries(metric.thresholds || {}))
      lines.push(`  ${result.ok ? 'ok  ' : 'FAIL'} ${name} ${expr}`);
  }
  return lines;
}

/** The kit's lines after k6's own summary: requests, the walk, then each threshold. */
export function textSummary(data, planId) {
  const m = data.metrics;
  const lines = [
    `k6 ${planId}: ${m.http_reqs ? m.http_reqs.values.count : 0} requests, ` +
      `${m.rate_limited ? m.rate_limited.values.count : 0} rate-limited`,
  ];
  if (m.walk_rows) {
    const rows = m.walk_rows.values.count;
    const pages = m.walk_pages.values.count;
    if (m.walk_duration) {
      const secs = m.walk_duration.values.max / 1000;
      lines.push(
        `  walk: ${rows} rows in ${pages} pages, ${secs.toFixed(1)} s, ` +
          `${(rows / Math.max(secs, 0.001)).toFixed(0)} rows/s`,
      );
    } else {
      lines.push(`  walk: ${rows} rows in ${pages} pages, not at the end when WALK_MAX_DURATION ran out`);
    }
  }
  return [...lines, ...thresholdLines(data)].join('\n') + '\n';
}
