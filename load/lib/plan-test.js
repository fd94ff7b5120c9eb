// One load test, parameterised by plan. Its numbers come from the contract's plan table
// (lib/plans.json, generated from x-plans with the contract's other derived files), never from this file.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { junit, k6Summary } from './summary.js';

const table = JSON.parse(open('./plans.json'));

const rateLimited = new Counter('rate_limited');
const unexpected429 = new Counter('unexpected_429');
const backoffSeconds = new Counter('backoff_seconds');
// A full sync as a client would make it: how many rows, how many pages, how long from the first
// page to the last (Retry-After waits included), so rows a second at the plan's rate follow.
const walkRows = new Counter('walk_rows');
const walkPages = new Counter('walk_pages');
const walkTime = new Trend('walk_duration', true);

/** @param {string} planId */
export function planTest(planId) {
  const plan = table.plans[planId];
  if (!plan) throw new Error(`[investor-graph k6] no plan ${planId} in plans.json`);
  const base = (__ENV.BASE_URL || 'http://127.0.0.1:4010').replace(/\/$/, '');
  const duration = __ENV.DURATION || '30s';
  // The walk may take longer than the other scenarios: a full sync of a large resource at the plan's rate.
  const walkDuration = __ENV.WALK_MAX_DURATION || duration;
  const walkResource = __ENV.WALK_RESOURCE || 'investments';
  if (!/^[a-z][a-z-]*$/.test(walkResource)) throw new Error(`[investor-graph k6] WALK_RESOURCE=${walkResource} is not a list such as investments, rounds or firms`);
  const rate = plan.rate_per_second;
  const scenarios = {
    at_rate: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration, preAllocatedVUs: Math.max(2, rate), exec: 'atRate' },
    above_rate: { executor: 'constant-arrival-rate', rate: rate * 3, timeUnit: '1s', duration, preAllocatedVUs: Math.max(4, rate * 3), exec: 'aboveRate' },
    cursor_walk: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: walkDuration, exec: 'cursorWalk' },
  };
  if (plan.changes_feed) scenarios.changes_poll = { executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s', duration, preAllocatedVUs: 1, exec: 'changesPoll' };

  const thresholds = {
    // At the plan's rate the service must keep up: no 429, every check passes, latency bounded.
    'unexpected_429{scenario:at_rate}': ['count==0'],
    'checks{scenario:at_rate}': ['rate==1'],
    'http_req_duration{scenario:at_rate}': [`p(95)<${__ENV.P95_MS || 500}`],
    // Always true: it puts the scenario's request count in the summary, to add up split runs.
    'http_reqs{scenario:at_rate}': ['count>=0'],
    // Above it, 429s must come, each with Retry-After and actions.
    'rate_limited{scenario:above_rate}': ['count>0'],
    'checks{scenario:above_rate}': ['rate==1'],
    'checks{scenario:cursor_walk}': ['rate==1'],
  };
  if (plan.changes_feed) thresholds['checks{scenario:changes_poll}'] = ['rate==1'];

  // SCENARIOS=at_rate runs a subset, e.g. a gentle smoke against the live service with one key
  // (above_rate would drain the bucket at_rate needs when both share a key).
  if (__ENV.SCENARIOS) {
    const wanted = __ENV.SCENARIOS.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = wanted.filter((s) => !(s in scenarios));
    if (unknown.length || !wanted.length) throw new Error(`[investor-graph k6] SCENARIOS=${__ENV.SCENARIOS}: the ${planId} scenarios are ${Object.keys(scenarios).join(', ')}`);
    for (const name of Object.keys(scenarios)) if (!wanted.includes(name)) delete scenarios[name];
    for (const expr of Object.keys(thresholds)) if (!wanted.some((name) => expr.endsWith(`{scenario:${name}}`))) delete thresholds[expr];
  }

  // One key for everything (API_KEY alone): the scenarios share its rate bucket, so they take turns,
  // the over-rate one last, with a pause for the bucket to refill between them.
  if (__ENV.API_KEY && !__ENV.API_KEY_BURST && !__ENV.API_KEY_WALK && Object.keys(scenarios).length > 1) {
    const order = ['at_rate', 'changes_poll', 'cursor_walk', 'above_rate'].filter((name) => name in scenarios);
    let at = 0;
    for (const name of order) {
      scenarios[name].startTime = `${at}s`;
      at += seconds(name === 'cursor_walk' ? walkDuration : duration) + 2;
    }
    console.log(`[investor-graph k6] one key for ${order.length} scenarios: they run one after another (${order.join(', ')}), ${at} s in all`);
  }

  const options = {
    scenarios,
    thresholds,
    // Every scenario's own key: one bucket each, so the over-rate scenario cannot starve the others.
    setupTimeout: '30s',
    summaryTrendStats: ['avg', 'min', 'med', 'p(95)', 'p(99)', 'max', 'count'],
  };

  /** Keys come from the environment; against a local mock they are made through its control API. */
  function setup() {
    const make = () => {
      const res = http.post(`${base}/__control/keys`, JSON.stringify({ plan: planId, prepaid_rows: 10000000 }), { headers: { 'content-type': 'application/json' } });
      if (res.status !== 201) throw new Error(`[investor-graph k6] no API_KEY given and ${base}/__control/keys answered ${res.status}: pass -e API_KEY=... -e API_KEY_BURST=...`);
      return res.json('key');
    };
    return {
      key: __ENV.API_KEY || make(),
      burstKey: __ENV.API_KEY_BURST || __ENV.API_KEY || make(),
      walkKey: __ENV.API_KEY_WALK || __ENV.API_KEY || make(),
    };
  }

  const auth = (key) => ({ headers: { authorization: `Bearer ${key}` } });

  function atRate(keys) {
    const res = http.get(`${base}/api/v1/firms?limit=10`, { ...auth(keys.key), tags: { name: 'firms page' } });
    if (res.status === 429) unexpected429.add(1);
    check(res, {
      'status 200': (r) => r.status === 200,
      'envelope': (r) => r.status === 200 && ['data', 'next_cursor', 'as_of', 'plan', 'usage'].every((k) => k in r.json()),
      'plan in the envelope': (r) => r.status === 200 && r.json('plan.id') === planId,
    });
  }

  function aboveRate(keys) {
    const res = http.get(`${base}/api/v1/firms?limit=1`, { ...auth(keys.burstKey), tags: { name: 'firms burst' } });
    if (res.status === 429) {
      rateLimited.add(1);
      const wait = Number(res.headers['Retry-After']);
      check(res, {
        '429 has Retry-After': () => wait >= 1,
        '429 has actions': (r) => Array.isArray(r.json('actions')) && r.json('actions').length > 0,
        '429 has RateLimit-Policy': (r) => String(r.headers['Ratelimit-Policy']).includes(`q=${rate}`),
      });
      // Back off as told: this VU waits Retry-After before its next request.
      backoffSeconds.add(wait);
      sleep(wait);
    } else {
      check(res, { 'status 200 or 429': (r) => r.status === 200 });
    }
  }

  /** Walks WALK_RESOURCE (investments) to its end at the plan's page size, as a full sync does. */
  function cursorWalk(keys) {
    let cursor = null;
    let rows = 0;
    let pages = 0;
    const seen = new Set();
    let duplicate = false;
    const started = Date.now();
    do {
      const url = `${base}/api/v1/${walkResource}?limit=${plan.rows_per_page}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = http.get(url, { ...auth(keys.walkKey), tags: { name: `${walkResource} walk` } });
      if (res.status === 429) {
        sleep(Number(res.headers['Retry-After']) || 1);
        continue;
      }
      if (!check(res, { 'walk page 200': (r) => r.status === 200 })) {
        if (pages === 0) console.error(`[investor-graph k6] WALK_RESOURCE=${walkResource}: ${url.split('?')[0]} answered ${res.status}`);
        return;
      }
      const body = res.json();
      check(body, { 'page within the plan cap': (b) => b.data.length <= plan.rows_per_page });
      for (const row of body.data) {
        // Every row names itself by its service URL, whatever the resource's key field.
        const id = row.service_url || JSON.stringify(row);
        if (seen.has(id)) duplicate = true;
        seen.add(id);
      }
      rows += body.data.length;
      pages++;
      walkRows.add(body.data.length);
      walkPages.add(1);
      cursor = body.next_cursor;
    } while (cursor && pages < 1000000);
    walkTime.add(Date.now() - started);
    check(rows, { 'walk reached the end': () => cursor === null && rows > 0, 'walk saw no row twice': () => !duplicate });
  }

  function changesPoll(keys) {
    const since = __ENV.SINCE || '2026-11-01T00:00:00Z';
    const res = http.get(`${base}/api/v1/changes?since=${since}&limit=50`, { ...auth(keys.walkKey), tags: { name: 'changes poll' } });
    if (res.status === 429) {
      sleep(Number(res.headers['Retry-After']) || 1);
      return;
    }
    check(res, {
      'changes 200': (r) => r.status === 200,
      'changes in order': (r) => {
        const seq = r.json('data').map((c) => c.sequence);
        return seq.every((s, i) => i === 0 || s > seq[i - 1]);
      },
    });
  }

  function handleSummary(data) {
    const out = __ENV.SUMMARY_DIR || '.';
    // setup()'s return value holds the keys: it never reaches a file (CI uploads these as artifacts).
    const { setup_data: _keys, ...kept } = data;
    return {
      [`${out}/summary-${planId}.json`]: JSON.stringify(kept, null, 2),
      [`${out}/junit-${planId}.xml`]: junit(data, `k6 ${planId}`),
      // k6's own summary as k6 users expect it, then the kit's threshold list.
      stdout: k6Summary(data) + '\n' + textSummary(data, planId),
    };
  }

  return { options, setup, atRate, aboveRate, cursorWalk, changesPoll, handleSummary };
}

function textSummary(data, planId) {
  const m = data.metrics;
  const lines = [`k6 ${planId}: ${m.http_reqs ? m.http_reqs.values.count : 0} requests, ${m.rate_limited ? m.rate_limited.values.count : 0} rate-limited`];
  if (m.walk_rows) {
    const rows = m.walk_rows.values.count;
    const pages = m.walk_pages.values.count;
    if (m.walk_duration) {
      const secs = m.walk_duration.values.max / 1000;
      lines.push(`  walk: ${rows} rows in ${pages} pages, ${secs.toFixed(1)} s, ${(rows / Math.max(secs, 0.001)).toFixed(0)} rows/s`);
    } else {
      lines.push(`  walk: ${rows} rows in ${pages} pages, not at the end when WALK_MAX_DURATION ran out`);
    }
  }
  for (const [name, metric] of Object.entries(m)) {
    for (const [expr, result] of Object.entries(metric.thresholds || {})) lines.push(`  ${result.ok ? 'ok  ' : 'FAIL'} ${name} ${expr}`);
  }
  return lines.join('\n') + '\n';
}

/** A k6 duration ('30s', '2m', '1m30s', '500ms') in seconds. */
function seconds(duration) {
  let total = 0;
  const parts = String(duration).match(/\d+(?:\.\d+)?(?:ms|s|m|h)/g);
  if (!parts || parts.join('') !== String(duration)) throw new Error(`[investor-graph k6] DURATION=${duration} is not a k6 duration such as 30s or 2m`);
  for (const part of parts) {
    const value = parseFloat(part);
    total += part.endsWith('ms') ? value / 1000 : part.endsWith('s') ? value : part.endsWith('m') ? value * 60 : value * 3600;
  }
  return total;
}
