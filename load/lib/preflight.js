// The checks a run makes before its scenarios: a results folder k6 can write to, a service that answers.
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';

/**
 * A run that cannot keep its results, or reach the service, stops before its scenarios with one
 * line saying why: k6 makes no folder and only logs a failed write after the summary (exit 0),
 * and a service that is not there would leave every threshold judged on nothing.
 */
export function preflight({ results, planId, base, keys }) {
  const folder = exec.test.options.ext.investorGraph.resultsFolder;
  if (folder === 'missing' || folder === 'file') {
    stop(
      `the results folder ${results} ` +
        `${folder === 'missing' ? 'does not exist (k6 makes no folder)' : 'is a file'}: ` +
        `mkdir -p ${results}, or -e RESULTS_DIR=DIR, ` +
        `or run it with npx --no -- investor-graph-load run ${planId}, which makes it`,
    );
  }
  // Every path the scripts call starts /api/v1: a base URL ending in it is answered 404 everywhere.
  if (/\/api\/v1$/.test(base))
    stop(`BASE_URL ${base} ends in /api/v1, which the scripts add to every path: -e BASE_URL=${base.slice(0, -7)}`);
  const res = http.get(`${base}/api/v1/openapi.json`, {
    timeout: '10s',
    tags: { name: 'preflight' },
    responseCallback: http.expectedStatuses({ min: 200, max: 599 }),
  });
  if (res.status === 0)
    stop(
      `cannot reach ${base} (${res.error}): ` +
        'start the service (npx --no -- investor-graph-mock for the mock) or set -e BASE_URL=...',
    );
  refusedKey(base, keys);
}

/**
 * Each key given (API_KEY, API_KEY_BURST, API_KEY_WALK; one call to the free account operation for
 * each different one): a key the service refuses stops the run before its scenarios, which would
 * otherwise spend about four times DURATION on 401s and judge every threshold on them.
 */
function refusedKey(base, keys) {
  const checked = new Set();
  for (const [name, key] of Object.entries(keys)) {
    if (!key || checked.has(key)) continue;
    checked.add(key);
    const res = http.get(`${base}/api/v1/account`, {
      headers: { authorization: `Bearer ${key}` },
      timeout: '10s',
      tags: { name: 'preflight' },
      responseCallback: http.expectedStatuses({ min: 200, max: 599 }),
    });
    if (res.status === 401 || res.status === 403) {
      let code = '';
      try {
        code = ` ${res.json('code')}`;
      } catch {
        // no problem body: the status says it
      }
      stop(
        `the service refused ${name} (${res.status}${code === ' undefined' ? '' : code}): give a key it accepts, ` +
          "or none against the kit's mock (the run makes its keys through /__control/keys)",
      );
    }
  }
  // The checks took a token of each key's bucket (and investor-graph-load run's own check another):
  // a second, which refills two at the slowest plan's rate, so the at-rate scenario starts on a full one.
  if (checked.size) sleep(1);
}

/** Says why the run stops, first, then stops it (k6 exits 108). */
export function stop(reason) {
  console.error(`[investor-graph k6] ${reason}`);
  exec.test.abort(reason);
}

/**
 * Whether the results folder is there, told from the init context of the first VU (the only one
 * open() may look at a new path from): 'folder', 'missing', 'file', or 'unknown' for a relative
 * folder when the shell gave no PWD to resolve it against. k6 opens a directory with an error of
 * its own, a missing path with the system's.
 */
export function folderState(results) {
  if (__VU !== 0) return 'unknown';
  const cwd = __ENV.PWD;
  const path = results.startsWith('/') ? results : cwd ? `${cwd.replace(/\/$/, '')}/${results}` : null;
  if (path === null) return 'unknown';
  try {
    open(path, 'b');
    return 'file';
  } catch (error) {
    if (/can't be used with directories/.test(String(error))) return 'folder';
    return /no such file/.test(String(error)) ? 'missing' : 'unknown';
  }
}
