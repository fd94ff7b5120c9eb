/**
 * The figures of a run as BENCHMARKS.md shows them, written between its `mutation` markers (the
 * explanations of the survivors around them stay, written by a person).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { families } from './operators.ts';
import { killedBy, scoreOf, type MutantResult } from './score.ts';
import type { SeedRun } from './cli-run.ts';

export interface RunFigures {
  date: string;
  node: string;
  cpus: number;
  complete: boolean;
  pickSeed: number;
  seeds: number[];
  jobs: number;
  /** Arguments added to the CLI's defaults (none: its default run, with the model). */
  cliArgs?: string[];
  enumerated: { total: number; byFamily: Record<string, number> };
  sampled: number;
  baseline: (SeedRun & { plan: string })[];
  score?: unknown;
  ms: number;
  results: MutantResult[];
}

const changedText = (r: MutantResult) => r.seeds.map((s) => s.changed).join(' / ');

/** The block of figures for BENCHMARKS.md. */
export function mutationBlock(run: RunFigures): string {
  const s = scoreOf(run.results, run.enumerated.total);
  const rows = families.map((f) => {
    const of = run.results.filter((r) => r.mutant.family === f);
    const n = (o: string) => of.filter((r) => r.outcome === o).length;
    const all = of.filter((r) => r.outcome === 'killed' && r.killedOn === 'all').length;
    return (
      `| ${f} | ${run.enumerated.byFamily[f] ?? 0} | ${of.length} | ${n('killed')} (${all} / ` +
      `${n('killed') - all}) | ${n('survived')} | ${n('equivalent')} | ${n('not-reached')} | ${n('error')} |`
    );
  });
  const baseline = run.baseline
    .map((b) => `${b.plan} seed ${b.seed} exit ${b.exit} in ${Math.round(b.ms / 1000)} s`)
    .join(', ');
  const listed = (outcome: string) =>
    run.results.filter((r) => r.outcome === outcome).sort((a, b) => (a.mutant.id < b.mutant.id ? -1 : 1));
  const survivorRows = [...listed('survived'), ...listed('equivalent')].map(
    (r) =>
      `| \`${r.mutant.id}\` | ` +
      `${r.outcome === 'equivalent' ? `equivalent? ${r.mutant.equivalent}` : 'survived'} | ` +
      `${changedText(r)} |`,
  );
  const flaky = run.results.flatMap((r) =>
    r.seeds
      .filter((x) => x.again)
      .map(
        (x) =>
          `\`${r.mutant.id}\` seed ${x.seed} (${x.broken.join(', ')}: ` +
          `${x.again!.exit === 1 ? 'broke again, a kill' : 'held the second time, no kill'})`,
      ),
  );
  const killedSome = listed('killed')
    .filter((r) => r.killedOn === 'some')
    .map(
      (r) =>
        `\`${r.mutant.id}\` (${r.seeds
          .filter(killedBy)
          .map((x) => x.seed)
          .join(', ')}; changed ${changedText(r)})`,
    );
  const errors = listed('error').map((r) => `\`${r.mutant.id}\`: ${r.error}`);
  const added = run.cliArgs?.length ? ` and ${run.cliArgs.join(' ')}` : '';
  return `Last run ${run.date.slice(0, 16).replace('T', ' ')} UTC on ${run.cpus} CPUs, Node \
${run.node}${run.complete ? '' : ' (stopped before the end: the figures are of the mutants it finished)'}: \
${s.sampled} of ${s.enumerated.toLocaleString('en')} mutants enumerated, picked with seed ${run.pickSeed}, each \
against the contract tests' CLI with its default flags${added} on seeds ${run.seeds.join(', ')}, ${run.jobs} \
at a time; \
${(run.ms / 60_000).toFixed(0)} min in all. Baseline (the unmutated proxy): ${baseline}.

**Score: ${s.score ?? '-'}%** of the mutants reached (${s.killed} killed of ${s.killed + s.survived}), \
${s.scoreWithEquivalent ?? '-'}% counting the ${s.equivalent} candidate equivalents as survivors. Killed ${s.killed} \
(${s.killedOnAll} on every seed, ${s.killedOnSome} on some), survived ${s.survived}, candidate equivalents \
${s.equivalent}, not reached ${s.notReached}, harness errors ${s.errors}.

| family | enumerated | run | killed (every seed / some) | survived | equivalent? | not reached | harness errors |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Survivors and candidate equivalents (answers the mutant changed, by seed):

| mutant | outcome | answers changed |
|---|---|---|
${survivorRows.join('\n')}

Killed on some seeds only: ${killedSome.join(', ') || 'none'}.

Seeds run again because only a check that leans on timing broke: ${flaky.join(', ') || 'none'}.

Harness errors: ${errors.join('; ') || 'none'}.`;
}

/**
 * Writes the block between `<!-- mutation:start -->` and `<!-- mutation:end -->` of a
 * file; false when it has no markers.
 */
export function refreshBenchmarks(file: string, run: RunFigures): boolean {
  const text = readFileSync(file, 'utf8');
  const marked = /<!-- mutation:start -->\n[^]*?<!-- mutation:end -->/;
  if (!marked.test(text)) return false;
  writeFileSync(
    file,
    text.replace(marked, () => `<!-- mutation:start -->\n${mutationBlock(run)}\n<!-- mutation:end -->`),
  );
  return true;
}
