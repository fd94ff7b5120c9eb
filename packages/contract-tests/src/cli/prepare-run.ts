/**
 * What a run is set up with before vitest starts: the keys (from the mock's control API when
 * asked), each checked by a preflight, and each key's share of the budget; and the CLI's own
 * lines, a set-up that cannot start being one of them and exit 3.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exitCode, writeSetupReports, type ReportFiles, type SetupStep } from '@investor-graph/cli';
import { planIds, type PlanId } from '@investor-graph/contract';
import { defaultBudget, keylessCalls } from '../core/budgets.ts';
import type { SuiteConfig } from '../core/context.ts';
import { hideKey } from '../shown/failure-text.ts';
import { command, type CliOptions } from './cli-options.ts';
import { preflight } from './preflight.ts';
import { properties } from '../properties.ts';

/** A line of the CLI's own, with its prefix. */
export function say(line: string): void {
  console.error(`[${command}] ${line}`);
}

/** Where a run that cannot start writes why (its --junit, --report and --html), once the command line is read. */
let setupReports: { files: ReportFiles; facts: Record<string, string> } | undefined;

/** The reports a set-up failure is to write, and what the run was pointed at (never a key). */
export function reportSetupFailuresTo(options: CliOptions): void {
  setupReports = {
    files: {
      junit: resolve(options.junit),
      json: resolve(options.report),
      html: options.html && resolve(options.html),
    },
    facts: {
      base_url: options.baseUrl,
      plans: options.keys.map((k) => k.plan).join(', ') || (options.keysFromControl ? 'every plan' : ''),
    },
  };
}

/**
 * The run cannot start for a reason of the set-up: one line saying what to fix, the reports saying
 * the same (a failed case naming `step`), and exit 3.
 */
export function stop(line: string, step: SetupStep = 'service'): never {
  say(line);
  if (setupReports) writeSetupReports({ command, step, reason: line, facts: setupReports.facts }, setupReports.files);
  process.exit(exitCode.setup);
}

/** The keys (from the mock's control API if asked), each checked by a preflight, as one suite config each. */
export async function prepareRun(options: CliOptions): Promise<SuiteConfig[]> {
  const { baseUrl: base, keys } = options;
  if (options.keysFromControl) {
    for (const plan of planIds) keys.push({ plan, key: await controlKey(base, plan) });
    say(`--use-control without a key: the mock's control API made a key of each plan (${planIds.join(', ')})`);
  }
  for (const { plan, key } of keys) {
    const problem = await preflight({ baseUrl: base, ...(key ? { key } : {}), plan, useControl: options.useControl });
    if (problem) stop(`${keys.length > 1 ? `the ${plan} key: ` : ''}${problem.reason}`, problem.step);
  }
  // One suite per key, each with an even share of the budget (after one preflight call each). With
  // several keys each writes a report of its own, merged into --report when they are done.
  const parts = keys.length > 1 ? mkdtempSync(join(tmpdir(), 'investor-graph-contract-tests-')) : null;
  return keys.map(({ plan, key }, i) =>
    withBudget(
      {
        baseUrl: base,
        ...(key ? { key } : { email: options.email! }),
        plan,
        budget: { calls: 0, rows: 0 },
        // What does not depend on the key runs once a run: with the last key, admission's probes last of all.
        keylessChecks: i === keys.length - 1,
        ...(options.failedAuthBurst ? { failedAuthBurst: true } : {}),
        seed: options.seed,
        runs: options.runs,
        ...(options.rateBurst ? { allowRate: true } : {}),
        ...(options.useControl ? { useControl: true } : {}),
        ...(options.exhaustTrial ? { exhaustTrial: true } : {}),
        ...(options.model ? {} : { model: false }),
        ...(options.data ? { dataDir: resolve(options.data) } : {}),
        ...(options.only ? { only: options.only } : {}),
        ...(options.path ? { path: options.path } : {}),
        ...(options.replayPath ? { replayPath: options.replayPath } : {}),
        reportFile: parts ? join(parts, `${plan}.json`) : resolve(options.report),
      },
      options,
      keys.length,
    ),
  );
}

/**
 * A key's budget: its share of --budget-calls and --budget-rows (after a preflight call each),
 * else its plan's default (budgets.ts).
 */
function withBudget(config: SuiteConfig, options: CliOptions, keys: number): SuiteConfig {
  const own = defaultBudget(config.plan, keylessCalls(config, properties));
  const calls = options.budgetCalls === undefined ? own.calls : Math.floor((options.budgetCalls - keys) / keys);
  const rows = options.budgetRows === undefined ? own.rows : Math.floor(options.budgetRows / keys);
  const given = [
    options.budgetCalls === undefined ? '' : '--budget-calls',
    options.budgetRows === undefined ? '' : '--budget-rows',
  ].filter(Boolean);
  const share = keys > 1 ? 'an even share of ' : '';
  const why =
    given.length === 2
      ? keys > 1
        ? `${share}${given.join(' and ')}`
        : ''
      : given.length
        ? `${share}${given[0]}, the rest ${own.why}`
        : own.why;
  return { ...config, budget: { calls, rows }, ...(why ? { budgetWhy: why } : {}) };
}

/** A key of a plan from the mock's control API (pay as you go with prepaid rows), or exit 3 saying why not. */
async function controlKey(base: string, plan: PlanId): Promise<string> {
  const answer = await fetch(`${base}/__control/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plan, ...(plan === 'payg' ? { prepaid_rows: 100_000 } : {}) }),
  }).catch(() => null);
  const body = (await answer?.json().catch(() => null)) as { key?: unknown } | null;
  if (answer?.status !== 201 || typeof body?.key !== 'string') {
    return stop(
      `--use-control without a key asks the mock's control API for a key of each plan; ` +
        `${new URL(base).origin} answered ${answer?.status ?? 'nothing'}: give keys with --key ` +
        `PLAN=KEY, or point --base-url at the kit's mock`,
    );
  }
  // The run's key: blanked in this process's texts too (the page), as the suite blanks it in its own.
  hideKey(body.key);
  return body.key;
}
