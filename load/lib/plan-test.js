// One load test, parameterised by plan. Its numbers come from the contract's plan table
// (lib/plans.json, generated from x-plans with the contract's other derived files), never from this file.
import http from 'k6/http';
import exec from 'k6/execution';
import { sha256 } from 'k6/crypto';
import { check, sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { junit, k6Summary, textSummary } from './summary.js';
import { folderState, preflight, stop } from './preflight.js';
import { fingerprint as fingerprintOf, planOptions, resultFiles, runInputs } from './plan-options.js';

const table = JSON.parse(open('./plans.json'));

const rateLimited = new Counter('rate_limited');
const unexpected429 = new Counter('unexpected_429');
const backoffSeconds = new Counter('backoff_seconds');
// The over-rate scenario's answers that were served (200): merged over a split run's parts, their
// rate says whether the service as a whole held the key to its plan's rate.
const burstServed = new Counter('burst_served');
// A full sync as a client would make it: how many rows, how many pages, how long from the first
// page to the last (Retry-After waits included), so rows a second at the plan's rate follow.
const walkRows = new Counter('walk_rows');
const walkPages = new Counter('walk_pages');
const walkTime = new Trend('walk_duration', true);
// Which part of which run wrote a samples file: one point from setup() and from each VU's first
// iteration (a part may run no setup, or no iteration), tagged with the plan, the execution segment
// and the fingerprint (investor-graph-load merge reads them).
const part = new Counter('investor_graph_part');
let marked = false;

/** @param {string} planId */
export function planTest(planId) {
  const inputs = runInputs(__ENV);
  const { plan, scenarios, thresholds, turns } = planOptions(table, planId, inputs);
  const base = (__ENV.BASE_URL || 'http://127.0.0.1:4010').replace(/\/$/, '');
  const results = (__ENV.RESULTS_DIR || 'load-results').replace(/\/$/, '');
  const walkResource = inputs.WALK_RESOURCE;
  const rate = plan.rate_per_second;
  const fingerprint = fingerprintOf(planId, scenarios, thresholds, (text) => sha256(text, 'hex'));
  if (turns) console.log(`[investor-graph k6] ${turns}`);
  // 429s the scenario expects (it waits as told) are answers, not failures, in http_req_failed.
  const expected429 = http.expectedStatuses(200, 429);

  const options = {
    scenarios,
    thresholds,
    // What only the init context can look at, for setup() to act on (exec.test.options.ext).
    ext: { investorGraph: { resultsFolder: folderState(results) } },
    // Every scenario's own key: one bucket each, so the over-rate scenario cannot starve the others.
    setupTimeout: '30s',
    summaryTrendStats: ['avg', 'min', 'med', 'p(95)', 'p(99)', 'max', 'count'],
  };

  const segment = () => exec.test.options.executionSegment || '0:1';
  function mark() {
    if (marked) return;
    marked = true;
    part.add(1, { plan: planId, segment: String(segment()), fingerprint });
  }

  /** Keys come from the environment; against a local mock they are made through its control API. */
  function setup() {
    const given = { API_KEY: __ENV.API_KEY, API_KEY_BURST: __ENV.API_KEY_BURST, API_KEY_WALK: __ENV.API_KEY_WALK };
    preflight({ results, planId, base, keys: given });
    const make = () => {
      const res = http.post(`${base}/__control/keys`, JSON.stringify({ plan: planId, prepaid_rows: 10000000 }), {
        headers: { 'content-type': 'application/json' },
      });
      // No key to run with is the set-up's: the run stops before its scenarios, saying so (exit 108).
      if (res.status !== 201)
        stop(
          `no API_KEY given and ${base}/__control/keys answered ${res.status}: ` +
            'pass -e API_KEY=... -e API_KEY_BURST=...',
        );
      return res.json('key');
    };
    mark();
    return {
      key: __ENV.API_KEY || make(),
      burstKey: __ENV.API_KEY_BURST || __ENV.API_KEY || make(),
      walkKey: __ENV.API_KEY_WALK || __ENV.API_KEY || make(),
    };
  }

  const auth = (key) => ({ headers: { authorization: `Bearer ${key}` } });

  function atRate(keys) {
    mark();
    const res = http.get(`${base}/api/v1/firms?limit=10`, { ...auth(keys.key), tags: { name: 'firms page' } });
    if (res.status === 429) unexpected429.add(1);
    check(res, {
      'status 200': (r) => r.status === 200,
      envelope: (r) =>
        r.status === 200 && ['data', 'next_cursor', 'as_of', 'plan', 'usage'].every((k) => k in r.json()),
      'plan in the envelope': (r) => r.status === 200 && r.json('plan.id') === planId,
    });
  }

  function aboveRate(keys) {
    mark();
    const res = http.get(`${base}/api/v1/firms?limit=1`, {
      ...auth(keys.burstKey),
      tags: { name: 'firms burst' },
      responseCallback: expected429,
    });
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
      if (res.status === 200) burstServed.add(1);
      check(res, { 'status 200 or 429': (r) => r.status === 200 });
    }
  }

  /** Walks WALK_RESOURCE (investments) to its end at the plan's page size, as a full sync does. */
  function cursorWalk(keys) {
    mark();
    let cursor = null;
    let rows = 0;
    let pages = 0;
    const seen = new Set();
    let duplicate = false;
    const started = Date.now();
    do {
      const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const url = `${base}/api/v1/${walkResource}?limit=${plan.rows_per_page}${after}`;
      const res = http.get(url, {
        ...auth(keys.walkKey),
        tags: { name: `${walkResource} walk` },
        responseCallback: expected429,
      });
      if (res.status === 429) {
        sleep(Number(res.headers['Retry-After']) || 1);
        continue;
      }
      if (!check(res, { 'walk page 200': (r) => r.status === 200 })) {
        if (pages === 0)
          console.error(
            `[investor-graph k6] WALK_RESOURCE=${walkResource}: ${url.split('?')[0]} answered ${res.status}`,
          );
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
    check(rows, {
      'walk reached the end': () => cursor === null && rows > 0,
      'walk saw no row twice': () => !duplicate,
    });
  }

  function changesPoll(keys) {
    mark();
    const since = __ENV.SINCE || '2026-11-01T00:00:00Z';
    const res = http.get(`${base}/api/v1/changes?since=${since}&limit=50`, {
      ...auth(keys.walkKey),
      tags: { name: 'changes poll' },
      responseCallback: expected429,
    });
    if (res.status === 429) {
      sleep(Number(res.headers['Retry-After']) || 1);
      return;
    }
    check(res, {
      'changes 200': (r) => r.status === 200,
      // Only a page has an order: a problem (a 401 of a key revoked mid-run) fails 'changes 200' alone.
      'changes in order': (r) => {
        if (r.status !== 200 || !Array.isArray(r.json('data'))) return false;
        const seq = r.json('data').map((c) => c.sequence);
        return seq.every((s, i) => i === 0 || s > seq[i - 1]);
      },
    });
  }

  function handleSummary(data) {
    const files = resultFiles(planId, segment());
    const folder = exec.test.options.ext.investorGraph.resultsFolder;
    // setup() stopped the run (its line says why): nothing ran to judge, and no threshold is "ok".
    if (!data.setup_data) {
      const text = `k6 ${planId}: stopped before any scenario ran (the line above says why); no threshold was judged\n`;
      if (folder === 'missing' || folder === 'file') return { stdout: text };
      return {
        [`${results}/${files.junit}`]: junit(data, `k6 ${planId}`, 'stopped before any scenario ran'),
        stdout: text,
      };
    }
    // setup()'s return value holds the keys: it never reaches a file (CI uploads these as artifacts).
    const { setup_data: _keys, ...kept } = data;
    // What investor-graph-load merge needs to put this part with the others and judge them together.
    kept.investor_graph = {
      plan: planId,
      segment: segment(),
      sequence: exec.test.options.executionSegmentSequence || null,
      fingerprint,
      inputs,
    };
    return {
      [`${results}/${files.summary}`]: JSON.stringify(kept, null, 2),
      [`${results}/${files.junit}`]: junit(data, `k6 ${planId}`),
      // k6's own summary as k6 users expect it, then the kit's threshold list.
      stdout: k6Summary(data) + '\n' + textSummary(data, planId),
    };
  }

  return { options, setup, atRate, aboveRate, cursorWalk, changesPoll, handleSummary };
}
