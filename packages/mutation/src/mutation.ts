/**
 * `pnpm mutation`: the mutation score the kit measures on itself. Samples the embedded dataset's
 * answers through an unbroken mock, enumerates every mutant, picks a stratified sample, checks the
 * contract tests pass against the unmutated proxy, then runs them against each mutant on three
 * seeds and prints the score; the figures go to mutation-results/mutation.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PlanId } from '@investor-graph/contract';
import { runSeed, timingChecks, type RunOptions, type SeedRun } from './cli-run.ts';
import { refreshBenchmarks, type RunFigures } from './figures.ts';
import { families, type MutantSpec } from './operators.ts';
import { startPair } from './pair.ts';
import { sampleAnswers } from './sample.ts';
import { classify, resultLine, scoreOf, type MutantResult } from './score.ts';
import { enumerateMutants, pickMutants } from './sites.ts';

const usage = `usage: pnpm mutation [--sample N] [--pick-seed N] [--seeds 1,2,3] [--jobs N] [--only ID,...] [--list] \
[--out FILE] [--families LIST] [--cli-arg ARG ...]
  --sample N     mutants to run, a stratified sample of all enumerated (100)
  --pick-seed N  the sample's seed: the same seed picks the same mutants (1)
  --seeds LIST   the contract tests' seeds each mutant runs on (1,2,3)
  --jobs N       mutants run at once, each its own mock, proxy and CLI (2)
  --only IDS     run these mutants (ids as --list prints them) instead of a sample
  --families L   enumerate and pick from these families only (all)
  --cli-arg ARG  an argument added to the contract tests' own, repeatable (--cli-arg=--no-model: the run
                 without the model); none is the CLI's default run
  --list         enumerate and print the sample, run nothing
  --out FILE     the results (mutation-results/mutation.json)
  --from FILE    run nothing: write the figures of a results file into BENCHMARKS.md
A whole sample's run writes its figures into BENCHMARKS.md too, between its mutation markers.`;

const benchmarks = fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));

/** Keys made up for the harness's own mocks, one a plan; never printed or written. */
const keys = Object.fromEntries(
  (['trial', 'team', 'business', 'enterprise', 'payg'] as const).map((p) => [
    p,
    `igk_${p}_${'mutationharness'.padEnd(32, '0')}`,
  ]),
) as Record<PlanId, string>;

/** Runs `work` over `items`, `jobs` at a time, in order of start. */
async function pool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const tally = (list: readonly MutantSpec[]) =>
  families.map((f) => `${f} ${list.filter((m) => m.family === f).length}`).join(', ');

export async function main(argv: string[], options: Partial<RunOptions> = {}): Promise<number> {
  const { values } = parseArgs({
    // `pnpm mutation -- --list`, as the README gives it: pnpm 10 passes the `--` on.
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      sample: { type: 'string', default: '100' },
      'pick-seed': { type: 'string', default: '1' },
      seeds: { type: 'string', default: '1,2,3' },
      jobs: { type: 'string', default: '2' },
      only: { type: 'string' },
      families: { type: 'string' },
      'cli-arg': { type: 'string', multiple: true, default: [] },
      list: { type: 'boolean', default: false },
      out: { type: 'string', default: 'mutation-results/mutation.json' },
      from: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return (void console.log(usage), 0);
  if (values.from) {
    const written = refreshBenchmarks(benchmarks, JSON.parse(await readFile(values.from, 'utf8')) as RunFigures);
    console.log(
      written
        ? `mutation: the figures of ${values.from} are in ${benchmarks}`
        : `mutation: ${benchmarks} has no mutation markers`,
    );
    return written ? 0 : 1;
  }
  const seeds = values.seeds.split(',').map(Number);
  const jobs = Math.max(1, Math.min(Number(values.jobs), cpus().length));
  const cliArgs = values['cli-arg'];
  const run: RunOptions = { keys, cliArgs, ...options };
  const started = Date.now();

  console.log("mutation: sampling the embedded dataset's answers through an unbroken mock");
  const sampler = await startPair({ mutant: null, keys });
  // Enterprise has every feature; a Team key adds the 402 of what it lacks (the dumps).
  const samples = await sampleAnswers(
    sampler.url,
    { enterprise: keys.enterprise, team: keys.team },
    { team: ['getExportManifest', 'getExportFile'] },
  ).finally(() => sampler.close());
  const named = values.families?.split(',');
  const all = enumerateMutants(samples).filter((m) => !named || named.includes(m.family));
  const only = values.only?.split(',');
  const picked = only
    ? all.filter((m) => only.includes(m.id))
    : pickMutants(all, Number(values.sample), Number(values['pick-seed']));
  console.log(`  ${samples.length} answers sampled; ${all.length} mutants enumerated (${tally(all)})`);
  if (cliArgs.length) console.log(`  the contract tests run with ${cliArgs.join(' ')} added to their defaults`);
  console.log(`  ${picked.length} picked${only ? ' by --only' : ` (seed ${values['pick-seed']})`}: ${tally(picked)}`);
  if (values.list) {
    for (const m of picked) console.log(`  ${m.id} [${m.plan}]${m.equivalent ? ` (equivalent? ${m.equivalent})` : ''}`);
    return 0;
  }

  // A false failure would make every kill meaningless: the unmutated proxy must pass on every seed.
  const plans = [...new Set(picked.map((m) => m.plan))];
  console.log(
    `mutation: the contract tests against the unmutated proxy, ${plans.join(' and ')} keys, seeds ${seeds.join(', ')}`,
  );
  const baseline = await pool(
    plans.flatMap((plan) => seeds.map((seed) => ({ plan, seed }))),
    jobs,
    async ({ plan, seed }) => ({ plan, ...(await runSeed(null, plan, seed, run)) }),
  );
  for (const b of baseline)
    console.log(
      `  ${b.plan} seed ${b.seed}: exit ${b.exit} in ${(b.ms / 1000).toFixed(0)} ` +
        `s${b.exit === 0 ? '' : `: ${b.broken.join(', ') || b.note || ''}`}`,
    );
  const write = async (results: MutantResult[], complete: boolean) => {
    const body: RunFigures = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      complete,
      pickSeed: Number(values['pick-seed']),
      seeds,
      jobs,
      cliArgs,
      enumerated: {
        total: all.length,
        byFamily: Object.fromEntries(families.map((f) => [f, all.filter((m) => m.family === f).length])),
      },
      sampled: picked.length,
      baseline,
      score: scoreOf(results, all.length),
      ms: Date.now() - started,
      results,
    };
    await mkdir(dirname(values.out), { recursive: true });
    await writeFile(values.out, `${JSON.stringify(body, null, 1)}\n`);
    if (complete && !only) refreshBenchmarks(benchmarks, body);
  };
  if (baseline.some((b) => b.exit !== 0)) {
    await write([], false);
    console.log(
      'mutation: stopped: the contract tests fail against the unmutated proxy, so no kill would mean anything',
    );
    return 1;
  }

  console.log(`mutation: ${picked.length} mutants, ${seeds.length} seeds each, ${jobs} at a time`);
  const results: MutantResult[] = [];
  const mutantsStarted = Date.now();
  await pool(picked, jobs, async (mutant) => {
    const runs: SeedRun[] = [];
    for (const seed of seeds) {
      const first = await runSeed(mutant, mutant.plan, seed, run);
      if (first.exit === 1 && first.broken.length > 0 && first.broken.every((id) => timingChecks.has(id))) {
        const again = await runSeed(mutant, mutant.plan, seed, run);
        first.again = { exit: again.exit, broken: again.broken };
      }
      runs.push(first);
    }
    const result = classify(mutant, runs);
    results.push(result);
    const each = (Date.now() - mutantsStarted) / results.length;
    console.log(
      `  [${results.length}/${picked.length}, ETA ${minutes(each * (picked.length - results.length))}] ` +
        `${resultLine(result)}`,
    );
    await write(results, false);
  });
  await write(results, true);
  const s = scoreOf(results, all.length);
  console.log(
    `\nmutation score: ${s.killed} killed (${s.killedOnAll} on every seed, ${s.killedOnSome} on some), ` +
      `${s.survived} survived, ${s.equivalent} equivalent candidates, ${s.notReached} not reached, ` +
      `${s.errors} harness errors`,
  );
  console.log(
    `  ${s.score ?? '-'}% of the reached mutants killed (${s.scoreWithEquivalent ?? '-'}% counting the ` +
      `equivalent candidates as survivors); ${s.enumerated} enumerated, ${s.sampled} run; ` +
      `${minutes(Date.now() - started)}`,
  );
  for (const r of results.filter(
    (x) => x.outcome === 'survived' || x.outcome === 'equivalent' || x.outcome === 'error',
  ))
    console.log(`  ${resultLine(r)}`);
  console.log(`  results: ${values.out}`);
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
