// The checks a run makes before its scenarios: a results folder k6 can write to, a service that answers.
import http from 'k6/http';
import exec from 'k6/execution';

/**
 * A run that cannot keep its results, or reach the service, stops before its scenarios with one
 * line saying why: k6 makes no folder and only logs a failed write after the summary (exit 0),
 * and a service that is not there would leave every threshold judged on nothing.
 */
export function preflight({ results, planId, base }) {
  const folder = exec.test.options.ext.investorGraph.resultsFolder;
  if (folder === 'missing' || folder === 'file') {
    stop(
      `the results folder ${results} ` +
        `${folder === 'missing' ? 'does not exist (k6 makes no folder)' : 'is a file'}: ` +
        `mkdir -p ${results}, or -e RESULTS_DIR=DIR, ` +
        `or run it with npx --no -- investor-graph-load run ${planId}, which makes it`,
    );
  }
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
}

/** Says why the run stops, first, then stops it (k6 exits 108). */
function stop(reason) {
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
