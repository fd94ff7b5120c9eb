/**
 * The run's suites in vitest: one vitest run of the suite file (cli-suite.contract.ts) with the
 * keys' configurations provided to it, a line per property as it finishes (property-lines.ts),
 * JUnit from vitest's own reporter.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startVitest, type Vitest } from 'vitest/node';
import type { CliOptions } from './cli-options.ts';
import type { SuiteConfig } from '../core/context.ts';
import { say } from './prepare-run.ts';
import { PropertyLines } from '../report/property-lines.ts';

/** A short name for a folder: the same path, the same name. */
const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * The suite file vitest runs: beside this one (src/cli/*.ts in the kit's clone, dist/cli/*.js when
 * installed). INVESTOR_GRAPH_CONTRACT_TESTS_SUITE replaces it for the CLI's own tests only, which
 * show what a user sees when the suite cannot load (cli.test.ts); it is no option of the command.
 */
export function suiteFile(): string {
  const here = fileURLToPath(import.meta.url);
  return process.env.INVESTOR_GRAPH_CONTRACT_TESTS_SUITE
    ? resolve(process.env.INVESTOR_GRAPH_CONTRACT_TESTS_SUITE)
    : join(dirname(here), `cli-suite.contract${extname(here)}`);
}

/** The suites in vitest, a line per property as it finishes; vitest's own output only with --verbose. */
export async function runSuites(
  configs: SuiteConfig[],
  options: CliOptions,
  errors: string[],
): Promise<[Vitest, PropertyLines]> {
  const base = options.baseUrl;
  const plans = configs.map((c) => c.plan).join(', ');
  // The totals given, or each key's own (its plan's default from its quota, budgets.ts).
  const given = options.budgetCalls !== undefined && options.budgetRows !== undefined;
  const budgets = given
    ? `${options.budgetCalls} calls and ${options.budgetRows} rows`
    : configs
        .map(
          (c) =>
            `${configs.length > 1 ? `${c.plan} ` : ''}${options.budgetCalls ?? c.budget.calls} calls ` +
            `and ${options.budgetRows ?? c.budget.rows} rows`,
        )
        .join(', ');
  const header =
    `contract tests: ${plans} key${configs.length > 1 ? 's' : ''} at ${base}, seed ` +
    `${options.seed}, budget ${budgets}`;
  if (options.useControl) {
    const { clock } = (await (await fetch(`${base}/__control/state`)).json()) as { clock?: { now?: string } };
    say(
      `--use-control: this run drives the mock's control API at ${new URL(base).origin}; its ` +
        `simulated clock (now ${clock?.now ?? 'unknown'}) will move forward and cannot be moved back`,
    );
  }
  // A report left from an earlier run must not pass for this one's.
  rmSync(resolve(options.report), { force: true });
  // The package's root, so that vitest finds the suite's imports; the suite's folder for a test's own suite.
  const suite = suiteFile();
  const here = fileURLToPath(import.meta.url);
  const root = dirname(suite) === dirname(here) ? resolve(dirname(here), '../..') : dirname(suite);
  // Without --verbose vitest's own output (its banner, its tree, each failure with a stack, where
  // it wrote the JUnit) goes nowhere: the progress lines and the summary say it once.
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const kept = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (errors.length < 100) errors.push(String(chunk));
      done();
    },
  });
  const lines = new PropertyLines({ header, plans: configs.length > 1, viaVitest: options.verbose });
  const vitest = await startVitest(
    [],
    {
      root,
      config: false,
      include: [relative(root, suite).split(sep).join('/')],
      // Installed, root is inside node_modules: nothing of vitest's default exclusions applies here.
      exclude: [],
      watch: false,
      fileParallelism: false,
      // The suite's modules as vitest transformed them, kept for the next run (0.9 of a run's 4
      // CPU-seconds), in the OS temp folder as Vite's cache below: vitest's default is
      // node_modules/.vitest-cache, inside the installed package, and a run writes nothing there.
      // A folder for each place the suite is installed: vitest empties its cache when it finds
      // another lockfile above the suite, so two projects sharing one would empty it for each other.
      fsModuleCache: true,
      fsModuleCachePath: join(tmpdir(), 'investor-graph-contract-tests', `modules-${hashOf(root)}`),
      testTimeout: 60 * 60_000,
      hookTimeout: 5 * 60_000,
      reporters: [
        ...(options.verbose ? ['verbose'] : []),
        lines,
        // Named for what they test, not for the suite's file inside the package: a suite per key
        // ("contract tests: team key at URL"), its cases by property or rule.
        [
          'junit',
          {
            suiteName: 'investor-graph contract tests',
            suiteNameTemplate: '{title}',
            classnameTemplate: '{suitename}',
            titleTemplate: '{title}',
          },
        ],
      ],
      outputFile: { junit: resolve(options.junit) },
      provide: { contractSuites: configs },
    },
    {
      // Vite's cache would land under root, inside the installed package: keep it in the OS temp folder.
      cacheDir: join(tmpdir(), 'investor-graph-contract-tests', 'vite'),
    },
    options.verbose ? {} : { stdout: quiet, stderr: kept },
  );
  return [vitest, lines];
}
