#!/usr/bin/env node
/**
 * investor-graph-load: runs a plan's k6 script into a results folder, and merges the parts of a run
 * split across k6 processes or pods into one verdict, JUnit and HTML report.
 */
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { resultFiles } from '../lib/plan-options.js';
import { exitCode, exitCodeOfK6, exitCodesHelp, k6ExitCodesHelp, readFlags, type SetupStep } from '@investor-graph/cli';
import { nearest } from '@investor-graph/cli/near';
import { merge, PartNotStarted, PartsError, planTable, SamplesError } from './merge.ts';
import { goTool } from '@investor-graph/cli/go-tool';
import { k6Tool } from './k6-tool.ts';
import { givenKeys, missingK6, scriptEnv, serviceProblem, writeRunSetupReports } from './preflight.ts';
import { findK6, partSegment, runK6 } from './run.ts';
import { closeWindow, metricsUrlProblem, openWindow, type OpenWindow } from './mock-metrics.ts';
import { mockLine } from './report-mock.ts';

const usage = `usage: investor-graph-load run PLAN [--part I/N | --mock-metrics URL] [--results DIR] [--k6 BIN]
                                [-- K6 ARGS]
       investor-graph-load merge DIR... [--out DIR]
       investor-graph-load k6

run     k6 on PLAN's script (trial, team, business, enterprise, payg), writing its summary, JUnit and
        raw samples into DIR (./load-results): PLAN.summary.json, PLAN.junit.xml,
        PLAN.samples.json.gz, and the HTML report PLAN.report.html
  --part I/N      run part I of N equal execution segments (files named by segment, e.g.
                  team.0-1of2.*), on this machine or another; merge them afterwards
  --results DIR   the results folder ($RESULTS_DIR, else ./load-results)
  --k6 BIN        the k6 binary ($K6_BIN, else the kit's build, built once with Go)
  --mock-metrics URL
                  the mock's Prometheus metrics, scraped just before k6 starts and just after it
                  ends: the mock's own counts for the run's window (calls by operation and status
                  class, 429s and 402s by plan, rows served and charged) beside k6's, in the report
                  and PLAN.mock.json. http://127.0.0.1:4010/__control/metrics (a loopback caller), or
                  the URL of its --metrics-port (http://HOST:PORT/metrics). A failed scrape is said,
                  never fatal; not with --part
  -- K6 ARGS      passed to k6 run, e.g. -- -e BASE_URL=https://api.example.com -e DURATION=2m
                  (keys and settings also come from the environment: BASE_URL, API_KEY, ...)

merge   one verdict for a run's parts: reads every part's samples from the folders (or files)
        given, computes the run's figures over all of them (counts and rates summed, percentiles
        from one distribution), judges the plan's thresholds from the contract's plan table, and
        writes PLAN.verdict.junit.xml, PLAN.verdict.json and PLAN.report.html
  --out DIR       where the verdict's files go (the first folder given, or the first file's folder)

k6      prints the path of the k6 the scripts run with: $K6_BIN, else one on PATH of a fitting
        version (v2, not older than the kit's pin), else the kit's build (built once with your Go
        from the Go module proxy, saying so first; its Go caches stay in
        ~/.cache/investor-graph-kit/go: rm -rf that folder to free them), for plain k6 run:
        K6=$(npx --no -- investor-graph-load k6)

${exitCodesHelp('investor-graph-load run', 'exit codes of run:')}
${k6ExitCodesHelp()}

${exitCodesHelp('investor-graph-load merge', 'exit codes of merge:')}

${exitCodesHelp('investor-graph-load k6', 'exit codes of k6:')}`;

const [command, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
  if (command === 'merge') {
    const { values, positionals, fail } = readFlags(
      'investor-graph-load merge',
      usage,
      rest,
      { out: { type: 'string' }, help: { type: 'boolean' } },
      { positionals: Infinity },
    );
    if (!positionals.length)
      fail('merge needs the results folder(s) of the run: investor-graph-load merge ./load-results');
    // Beside the parts: the first folder given, or the folder of the first file.
    const first = positionals[0]!;
    const out = values.out ?? (statSync(first, { throwIfNoEntry: false })?.isFile() ? dirname(first) : first);
    try {
      const result = await merge(positionals, resolve(out));
      process.stdout.write(result.text);
      console.log(`\nJUnit: ${result.files.junit}\nreport: ${result.files.html}`);
      return result.ok ? exitCode.held : exitCode.failed;
    } catch (error) {
      if (error instanceof PartNotStarted) {
        console.error(`[investor-graph-load merge] ${error.message}`);
        return exitCode.setup;
      }
      if (error instanceof PartsError || error instanceof SamplesError) {
        console.error(`[investor-graph-load merge] ${error.message}`);
        return 2;
      }
      // The verdict's files could not be written (a read-only folder, a full disk): one line.
      if ((error as NodeJS.ErrnoException).syscall) {
        console.error(
          `[investor-graph-load merge] cannot write the verdict into ${resolve(out)}: ${(error as Error).message}`,
        );
        return 2;
      }
      throw error;
    }
  }
  if (command === 'run') {
    const dash = rest.indexOf('--');
    const ours = dash === -1 ? rest : rest.slice(0, dash);
    const extra = dash === -1 ? [] : rest.slice(dash + 1);
    const { values, positionals, fail } = readFlags(
      'investor-graph-load run',
      usage,
      ours,
      {
        part: { type: 'string' },
        results: { type: 'string' },
        k6: { type: 'string' },
        'mock-metrics': { type: 'string' },
        help: { type: 'boolean' },
      },
      { positionals: 1 },
    );
    const plan = positionals[0];
    const plans = Object.keys(planTable().plans);
    if (!plan) fail(`run needs a plan: one of ${plans.join(', ')}`);
    if (!plans.includes(plan!)) {
      const near = nearest(plan!, plans);
      fail(`${plan} is no plan of the API: give one of ${plans.join(', ')}${near ? ` (did you mean ${near}?)` : ''}`);
    }
    let part: { index: number; count: number } | undefined;
    if (values.part !== undefined) {
      const m = /^(\d+)\/(\d+)$/.exec(values.part);
      if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
        fail(`--part ${values.part} is not I/N with 1 <= I <= N, e.g. --part 1/2`);
      part = { index: Number(m![1]), count: Number(m![2]) };
    }
    const metricsUrl = values['mock-metrics'];
    if (metricsUrl !== undefined) {
      const problem = metricsUrlProblem(metricsUrl);
      if (problem) fail(problem);
      // Each part's window would hold every part's calls: the mock's counts are of the whole run.
      if (part) fail("--mock-metrics is for a run that is not split: the mock's counts are of every part at once");
    }
    const vars = scriptEnv(extra);
    const keys = givenKeys(vars);
    // A key's rate is what is under test: parts that each made their own keys would each get the
    // plan's rate, and the merged verdict would fail for it.
    if (part && part.count > 1 && !keys.API_KEY)
      fail(
        "a split run's parts must share their keys: set API_KEY (and API_KEY_BURST, API_KEY_WALK) to the same " +
          'keys on every part',
      );
    const results = resolve(values.results ?? process.env.RESULTS_DIR ?? 'load-results');
    const segment = part ? partSegment(part.index, part.count).segment : undefined;
    // The set-up, before k6 starts: k6 is there, the service answers and accepts each key given.
    const stop = (step: SetupStep, reason: string): number => {
      console.error(`[investor-graph-load run] ${reason}`);
      const facts = { base_url: base, plan: plan! };
      writeRunSetupReports({ command: 'investor-graph-load run', step, reason, facts }, results, plan!, segment);
      return exitCode.setup;
    };
    const base = (vars.BASE_URL || 'http://127.0.0.1:4010').replace(/\/+$/, '');
    // Every path the scripts call starts /api/v1: a base URL ending in it would be answered 404 everywhere.
    if (/\/api\/v1$/.test(base))
      fail(`BASE_URL ${base} ends in /api/v1, which the kit adds to every path: give ${base.slice(0, -7)}`);
    let k6: string;
    try {
      k6 = findK6(values.k6);
    } catch (error) {
      // No k6 to run (no Go to build it, a wrong K6_BIN): one line, a set-up that keeps it from starting.
      return stop('tools', (error as Error).message);
    }
    const noK6 = missingK6(k6);
    if (noK6) return stop('tools', noK6);
    const problem = await serviceProblem(base, keys);
    if (problem) return stop(problem.step, problem.reason);
    // The mock's counters just before k6 starts and just after it ends: the run's window.
    const window: OpenWindow | undefined = metricsUrl ? await openWindow(metricsUrl) : undefined;
    let code: number;
    try {
      code = await runK6({ plan: plan!, results, part, k6, extra });
    } catch (error) {
      return stop('tools', (error as Error).message);
    }
    if (window) {
      const counted = await closeWindow(window);
      writeFileSync(join(results, `${plan}.mock.json`), JSON.stringify(counted, null, 2));
      if (counted.error) console.error(`[investor-graph-load run] no counts of the mock's: ${counted.error}`);
    }
    // A run not split is its own whole: its report now (a part waits for the merge).
    if (!part && (code === 0 || code === 99)) {
      try {
        const files = resultFiles(plan!, null);
        const result = await merge([join(results, files.summary), join(results, files.samples)], results, {
          reportOnly: true,
        });
        if (result.mock) console.log(mockLine(result.mock));
        console.log(`report: ${result.files.html}`);
      } catch (error) {
        console.error(`[investor-graph-load run] no report: ${(error as Error).message}`);
      }
    }
    const mapped = exitCodeOfK6(code);
    if (mapped === exitCode.internal)
      console.error(
        `[investor-graph-load run] k6 exited ${code}: a failure of k6's or the script's own, not the API's`,
      );
    return mapped;
  }
  if (command === 'k6') {
    readFlags('investor-graph-load k6', usage, rest, { help: { type: 'boolean' } });
    const found = goTool(k6Tool, (line) => console.error(line));
    if ('missing' in found) {
      console.error(`[investor-graph-load k6] ${found.missing}`);
      return exitCode.setup;
    }
    console.log(found.bin);
    return 0;
  }
  if (command === '--version' || command === '--help' || command === '-h' || command === undefined) {
    readFlags('investor-graph-load', usage, command ? [command] : ['--help'], { help: { type: 'boolean' } });
  }
  console.error(`[investor-graph-load] unknown command ${command}: run, merge or k6 (see investor-graph-load --help)`);
  return 2;
}

process.exitCode = await main();
