/**
 * What each mutant's runs come to, as StrykerJS counts them: killed (the CLI exited 1 on a seed
 * where the mutant changed an answer), survived, equivalent (survived, and its operator says why a
 * correct service could answer so), not reached (it changed no answer on any seed), or a harness
 * error (the CLI exited 2 or 3, crashed, timed out, or failed where nothing was changed).
 */
import type { SeedRun } from './cli-run.ts';
import type { MutantSpec } from './operators.ts';

export type Outcome = 'killed' | 'survived' | 'equivalent' | 'not-reached' | 'error';

export interface MutantResult {
  mutant: MutantSpec;
  seeds: SeedRun[];
  outcome: Outcome;
  /** Killed on every seed, on some, or on none. */
  killedOn: 'all' | 'some' | 'none';
  /** For an error: which seed and why. */
  error?: string;
}

/** A seed kills when the CLI exited 1 with an answer changed, and again if it was run again. */
export const killedBy = (s: SeedRun): boolean =>
  s.exit === 1 && s.changed > 0 && (s.again === undefined || s.again.exit === 1);

export function classify(mutant: MutantSpec, seeds: SeedRun[]): MutantResult {
  const failedUnchanged = seeds.find(
    (s) => s.exit === 1 && s.changed === 0 && (s.again === undefined || s.again.exit === 1),
  );
  const odd = seeds.find((s) => s.exit !== 0 && s.exit !== 1);
  const kills = seeds.filter(killedBy).length;
  const killedOn = kills === 0 ? 'none' : kills === seeds.length ? 'all' : 'some';
  const base = { mutant, seeds, killedOn } as const;
  if (odd)
    return {
      ...base,
      outcome: 'error',
      error: `seed ${odd.seed}: exit ${odd.exit ?? 'none (timed out)'}${odd.note ? `: ${odd.note}` : ''}`,
    };
  if (failedUnchanged)
    return {
      ...base,
      outcome: 'error',
      error: `seed ${failedUnchanged.seed}: failed with no answer changed (${failedUnchanged.broken.join(', ')})`,
    };
  if (kills > 0) return { ...base, outcome: 'killed' };
  if (seeds.every((s) => s.changed === 0)) return { ...base, outcome: 'not-reached' };
  return { ...base, outcome: mutant.equivalent ? 'equivalent' : 'survived' };
}

export interface Score {
  enumerated: number;
  sampled: number;
  killed: number;
  killedOnAll: number;
  killedOnSome: number;
  survived: number;
  equivalent: number;
  notReached: number;
  errors: number;
  /** killed / (killed + survived): of the mutants reached, not equivalent and run cleanly. */
  score: number | null;
  /** killed / (killed + survived + equivalent): counting every candidate equivalent as a survivor. */
  scoreWithEquivalent: number | null;
}

export function scoreOf(results: readonly MutantResult[], enumerated: number): Score {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const killed = count('killed');
  const survived = count('survived');
  const equivalent = count('equivalent');
  const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 1000) / 10);
  return {
    enumerated,
    sampled: results.length,
    killed,
    killedOnAll: results.filter((r) => r.outcome === 'killed' && r.killedOn === 'all').length,
    killedOnSome: results.filter((r) => r.outcome === 'killed' && r.killedOn === 'some').length,
    survived,
    equivalent,
    notReached: count('not-reached'),
    errors: count('error'),
    score: ratio(killed, killed + survived),
    scoreWithEquivalent: ratio(killed, killed + survived + equivalent),
  };
}

/** One line of a mutant's result, as the command prints it. */
export function resultLine(r: MutantResult): string {
  const changed = r.seeds.map((s) => s.changed).join('/');
  const killedOn =
    r.killedOn === 'all' ? 'every seed' : `${r.seeds.filter(killedBy).length} of ${r.seeds.length} seeds`;
  const what =
    r.outcome === 'killed'
      ? `killed on ${killedOn} by ${[...new Set(r.seeds.flatMap((s) => s.broken))].join(', ') || '(see the report)'}`
      : r.outcome === 'equivalent'
        ? `equivalent? ${r.mutant.equivalent}`
        : r.outcome === 'error'
          ? `harness error: ${r.error}`
          : r.outcome;
  const flaky = r.seeds
    .filter((s) => s.again && s.again.exit !== 1)
    .map((s) => `seed ${s.seed} broke ${s.broken.join(', ')} once, not again`);
  return (
    `${r.outcome.padEnd(11)} ${r.mutant.id} (${r.mutant.plan}; answers changed ${changed}): ` +
    `${what}${flaky.length ? ` (${flaky.join('; ')})` : ''}`
  );
}
