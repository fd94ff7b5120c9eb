// A plan's scenarios, thresholds and result file names, from the contract's plan table and the run's
// inputs. Plain JavaScript with no k6 import: the k6 scripts build their options with it, and
// `investor-graph-load merge` rebuilds the same thresholds with it to judge merged parts (and to see
// that a part came from this script, through the fingerprint of what it builds).

/** The environment variables that shape a run (besides keys and the base URL), with their defaults. */
export const inputDefaults = {
  DURATION: '30s',
  WALK_MAX_DURATION: '',
  WALK_RESOURCE: 'investments',
  P95_MS: '500',
  SCENARIOS: '',
};

/** How much more than the plan's rate the over-rate scenario may be served, merged over every part. */
export const servedTolerance = 1.5;

/**
 * The most answers the over-rate key may be served in its scenario: the plan's rate, with room
 * (servedTolerance) and a second's burst at the start, over the scenario's DURATION. A count, not
 * a rate over the run, so it means the same whatever else the run holds (the scenarios taking
 * turns on one key, a longer walk) and in every part merged.
 */
export function servedBound(rate, duration) {
  return Math.ceil(rate * servedTolerance * (seconds(duration, 'DURATION') + 1));
}

/**
 * The run's inputs from `env` (k6's __ENV): each of inputDefaults, and whether one key serves every
 * scenario (they then take turns).
 */
export function runInputs(env) {
  const inputs = {};
  for (const [name, fallback] of Object.entries(inputDefaults)) inputs[name] = env[name] || fallback;
  inputs.WALK_MAX_DURATION = inputs.WALK_MAX_DURATION || inputs.DURATION;
  inputs.ONE_KEY = Boolean(env.API_KEY && !env.API_KEY_BURST && !env.API_KEY_WALK);
  return inputs;
}

/**
 * The plan's k6 scenarios and thresholds for these inputs. Throws, naming the input, on a value the
 * script cannot run with.
 */
export function planOptions(table, planId, inputs) {
  const plan = table.plans[planId];
  if (!plan) throw new Error(`[investor-graph k6] no plan ${planId} in plans.json`);
  const { DURATION: duration, WALK_MAX_DURATION: walkDuration, WALK_RESOURCE: walkResource } = inputs;
  if (!/^[a-z][a-z-]*$/.test(walkResource))
    throw new Error(
      `[investor-graph k6] WALK_RESOURCE=${walkResource} is not a list such as investments, rounds or firms`,
    );
  seconds(duration, 'DURATION');
  seconds(walkDuration, 'WALK_MAX_DURATION');
  const rate = plan.rate_per_second;
  const scenarios = {
    at_rate: {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: Math.max(2, rate),
      exec: 'atRate',
    },
    above_rate: {
      executor: 'constant-arrival-rate',
      rate: rate * 3,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: Math.max(4, rate * 3),
      exec: 'aboveRate',
    },
    // The walk may take longer than the other scenarios: a full sync of a large resource at the plan's rate.
    cursor_walk: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: walkDuration,
      exec: 'cursorWalk',
    },
  };
  if (plan.changes_feed)
    scenarios.changes_poll = {
      executor: 'constant-arrival-rate',
      rate: 1,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: 1,
      exec: 'changesPoll',
    };

  const thresholds = {
    // At the plan's rate the service must keep up: no 429, every check passes, latency bounded.
    'unexpected_429{scenario:at_rate}': ['count==0'],
    'checks{scenario:at_rate}': ['rate==1'],
    'http_req_duration{scenario:at_rate}': [`p(95)<${inputs.P95_MS}`],
    // The scenario reached the service at all (a run against nothing fails here, not only in its
    // checks); it also puts the scenario's request count in the summary, to add up split runs.
    'http_reqs{scenario:at_rate}': ['count>0'],
    // Above it, 429s must come, each with Retry-After and actions...
    'rate_limited{scenario:above_rate}': ['count>0'],
    'checks{scenario:above_rate}': ['rate==1'],
    // ...and the service as a whole serves the key no more than its rate (and a burst). Each part of
    // a split run sees only its share, so a limit held per process or per replica passes every part
    // and fails here once the parts are merged (investor-graph-load merge).
    'burst_served{scenario:above_rate}': [`count<=${servedBound(rate, duration)}`],
    'checks{scenario:cursor_walk}': ['rate==1'],
    // No answer the scenarios do not expect: 429s are expected above the rate, in the walk and the
    // feed (each waits as told), so they are not failures there (responseCallback in plan-test.js).
    http_req_failed: ['rate==0'],
  };
  if (plan.changes_feed) thresholds['checks{scenario:changes_poll}'] = ['rate==1'];

  // SCENARIOS=at_rate runs a subset, e.g. a gentle smoke against the live service with one key
  // (above_rate would drain the bucket at_rate needs when both share a key).
  if (inputs.SCENARIOS) {
    const wanted = inputs.SCENARIOS.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((s) => !(s in scenarios));
    if (unknown.length || !wanted.length)
      throw new Error(
        `[investor-graph k6] SCENARIOS=${inputs.SCENARIOS}: ` +
          `the ${planId} scenarios are ${Object.keys(scenarios).join(', ')}`,
      );
    for (const name of Object.keys(scenarios)) if (!wanted.includes(name)) delete scenarios[name];
    for (const expr of Object.keys(thresholds)) {
      const scenario = /\{scenario:([a-z_]+)\}$/.exec(expr);
      if (scenario && !wanted.includes(scenario[1])) delete thresholds[expr];
    }
  }

  // One key for everything (API_KEY alone): the scenarios share its rate bucket, so they take turns,
  // the over-rate one last, with a pause for the bucket to refill between them.
  const order = ['at_rate', 'changes_poll', 'cursor_walk', 'above_rate'].filter((name) => name in scenarios);
  let turns = null;
  if (inputs.ONE_KEY && order.length > 1) {
    let at = 0;
    for (const name of order) {
      scenarios[name].startTime = `${at}s`;
      at += seconds(name === 'cursor_walk' ? walkDuration : duration) + 2;
    }
    turns = `one key for ${order.length} scenarios: they run one after another (${order.join(', ')}), ${at} s in all`;
  }
  return { plan, scenarios, thresholds, turns };
}

/**
 * A part's fingerprint: of the scenarios and thresholds its script built, with the SHA-256 each
 * side has (k6/crypto in the script, node:crypto in the merge) as `sha256hex(text)`.
 */
export function fingerprint(planId, scenarios, thresholds, sha256hex) {
  return sha256hex(JSON.stringify({ plan: planId, scenarios, thresholds })).slice(0, 16);
}

/** '0:1/2' as it goes into a file name ('0-1of2'); the whole run (no segment, or 0:1) has none. */
export function segmentLabel(segment) {
  if (!segment || segment === '0:1') return '';
  return segment.replace(/\//g, 'of').replace(':', '-');
}

/** The files a run or a part of one writes into its results folder, named by plan and segment. */
export function resultFiles(planId, segment) {
  const label = segmentLabel(segment);
  const stem = label ? `${planId}.${label}` : planId;
  return { summary: `${stem}.summary.json`, junit: `${stem}.junit.xml`, samples: `${stem}.samples.json.gz` };
}

/** A k6 duration ('30s', '2m', '1m30s', '500ms') in seconds. */
export function seconds(duration, name = 'DURATION') {
  let total = 0;
  const parts = String(duration).match(/\d+(?:\.\d+)?(?:ms|s|m|h)/g);
  if (!parts || parts.join('') !== String(duration))
    throw new Error(`[investor-graph k6] ${name}=${duration} is not a k6 duration such as 30s or 2m`);
  for (const part of parts) {
    const value = parseFloat(part);
    total += part.endsWith('ms')
      ? value / 1000
      : part.endsWith('s')
        ? value
        : part.endsWith('m')
          ? value * 60
          : value * 3600;
  }
  return total;
}
