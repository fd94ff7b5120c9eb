/**
 * What `investor-graph-load run` checks before k6 starts, so that a set-up that keeps the run from
 * meaning anything stops it in one line and exit 3, with its reports saying why: k6 is there, the
 * service answers, and it accepts each key given (one call to the free account operation for each
 * different key). The script's own pre-flight (lib/preflight.js) checks the same for a plain `k6 run`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeSetupReports, type SetupFailure, type SetupStep } from '@investor-graph/cli';
import { resultFiles } from '../lib/plan-options.js';

/** The variables the script reads, as k6 would see them: the environment, then each `-e NAME=VALUE` after `--`. */
export function scriptEnv(extra: string[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) seen[name] = value;
  for (let i = 0; i < extra.length; i++) {
    const word = extra[i]!;
    const pair = word === '-e' || word === '--env' ? extra[++i] : /^(?:-e|--env=)(.+)$/.exec(word)?.[1];
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0) seen[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return seen;
}

/** The keys the script runs with, by the variable that gives each (empty ones are unset). */
export function givenKeys(vars: Record<string, string>): Record<string, string> {
  const names = ['API_KEY', 'API_KEY_BURST', 'API_KEY_WALK'];
  return Object.fromEntries(names.filter((name) => vars[name]).map((name) => [name, vars[name]!]));
}

/** Why the run cannot start, or null: the service at `base` answers and accepts every key given. */
export async function serviceProblem(
  base: string,
  keys: Record<string, string>,
): Promise<{ step: SetupStep; reason: string } | null> {
  const get = async (path: string, key?: string): Promise<Response | string> => {
    try {
      return await fetch(`${base}${path}`, {
        headers: key ? { authorization: `Bearer ${key}` } : {},
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return (error as Error).name === 'TimeoutError' ? 'no answer within 10 s' : String(cause?.code ?? cause?.message);
    }
  };
  const contract = await get('/api/v1/openapi.json');
  if (typeof contract === 'string')
    return {
      step: 'service',
      reason:
        `cannot reach ${base} (${contract}): start the service (npx --no -- investor-graph-mock for the ` +
        'mock) or set BASE_URL',
    };
  await contract.body?.cancel();
  const checked = new Set<string>();
  for (const [name, key] of Object.entries(keys)) {
    if (checked.has(key)) continue;
    checked.add(key);
    const account = await get('/api/v1/account', key);
    if (typeof account === 'string') return { step: 'service', reason: `cannot reach ${base} (${account})` };
    const body = (await account.json().catch(() => null)) as { code?: unknown } | null;
    if (account.status === 401 || account.status === 403)
      return {
        step: 'key',
        reason:
          `the service refused ${name} (${account.status}${typeof body?.code === 'string' ? ` ${body.code}` : ''}): ` +
          "give a key it accepts, or none against the kit's mock (the run makes its keys there)",
      };
  }
  return null;
}

/** Whether a k6 given by path is there: a missing one is the set-up's, said before anything runs. */
export function missingK6(bin: string): string | null {
  return bin.includes('/') && !existsSync(bin)
    ? `--k6 ${bin} is not there: give a k6 v2 binary (or leave --k6 and K6_BIN unset with Go installed, and ` +
        'the kit builds one)'
    : null;
}

/**
 * The reports of a run that could not start, in the results folder under the names a run's reports
 * have: the JUnit (one failed case), the summary (the part's record, saying it did not start, which
 * `merge` refuses naming the reason) and the page.
 */
export function writeRunSetupReports(
  failure: SetupFailure,
  results: string,
  plan: string,
  segment: string | undefined,
): void {
  const files = resultFiles(plan, segment);
  writeSetupReports(
    failure,
    {
      junit: join(results, files.junit),
      json: join(results, files.summary),
      html: join(results, files.summary.replace(/\.summary\.json$/, '.report.html')),
    },
    {
      status: 'setup-failed',
      exit_code: 3,
      investor_graph: { plan, segment: segment ?? '0:1', setup: { step: failure.step, reason: failure.reason } },
      metrics: {},
    },
  );
}
