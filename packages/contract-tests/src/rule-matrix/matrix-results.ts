/**
 * The rule matrix in a run: each row's outcome from the run's properties and rules, merged over
 * the keys of a run, and the score that counts them (matrix-lines.ts says them).
 */
import type { PlanId } from '@investor-graph/contract';
import { matrix, rowPlans, type MatrixRow, type RowProof } from './rule-matrix.ts';

/**
 * `rests on a broken rule`: none of its checks broke on its own, but a rule it rests on broke (or
 * stopped a property of it): a rule such as `contract` judges every answer and covers a hundred
 * sentences, so its failure says one of them broke, not which; the row is unproven, not broken.
 */
export type RowOutcome =
  'held' | 'broken' | 'rests on a broken rule' | 'skipped' | 'not checkable' | 'not checked yet' | 'decided elsewhere';

/** How much of a row's checks a run ran (run.ts's coverage): all their cases, some, or none. */
export type RowCoverage = 'every case' | 'some cases' | 'not reached';

export interface MatrixResult {
  id: string;
  source: string;
  basis: 'documented' | 'assumed';
  outcome: RowOutcome;
  /** For a row with checks: held or broken on every case of its checks that ran, on some of them, or not reached. */
  coverage?: RowCoverage;
  checks: string[];
  /** The faults of the kit's mock its checks are shown to catch (none: checked, but never shown to fail). */
  faults: string[];
  /**
   * For a row with checks, what shows they fail on a breach of it (rule-matrix.ts): a fault of its
   * own, the model of this run comparing what it fixes, or nothing yet. Only the first is "checked".
   */
  proof?: RowProof;
  /** Why it was skipped, cannot be checked, or is not checked yet; for a "not shown" sentence, the decisions. */
  reason?: string;
  /** For a row resting on a broken rule: the rules that broke. */
  broken_rules?: string[];
}

export interface MatrixScore {
  /** Rows that state a rule: sentences and contract spots, less the spec's "not shown" sentences. */
  rows: number;
  checked: number;
  held: number;
  /** Checked rows a check of their own broke, and those that rest on a broken rule (neither held). */
  broken?: number;
  rests_on_broken_rule?: number;
  /** Checked rows whose checks that ran ran every case, and those of which some ran only some cases. */
  every_case: number;
  some_cases: number;
  /** Checked rows whose checks are shown to fail on a fault of the mock made for them. */
  shown_to_fail: number;
  /** Rows whose checks ran, shown to fail only by the model comparing what they fix (not counted as checked). */
  covered_by_model?: number;
  /** Rows whose checks ran but were never shown to fail on a breach of them alone (counted as not checked yet). */
  unproven?: number;
  documented: { checked: number; held: number };
  assumed: { checked: number; held: number };
  not_checkable: number;
  not_checked_yet: number;
  /** Rows of this run's matrix that no check of the run reached (another key, a flag, the budget). */
  skipped: number;
}

/**
 * Each row's outcome in a run: broken when a property of its checks failed on its own; resting on
 * a broken rule when a rule of its checks broke, or a rule's findings alone broke a property of
 * them; held when one ran and none failed; skipped when none of its checks ran.
 */
export function matrixResults(outcomes: {
  /** `rules`: the rules whose findings alone broke a failed property (run.ts). */
  properties: Map<string, { status: string; reason?: string; coverage?: string; rules?: string[] }>;
  rules: Map<string, number>;
  calls: number;
  plan: PlanId;
  /** The run judged its answers against a model (model/). */
  model?: boolean;
}): MatrixResult[] {
  return matrix.map((row) => {
    const base = rowBase(row, outcomes.model === true);
    if (row.decided)
      return {
        ...base,
        outcome: 'decided elsewhere' as const,
        reason: `decided in ${row.decided.map((d) => `DECISIONS.md#${d}`).join(', ')}`,
      };
    if (row.notCheckable) return { ...base, outcome: 'not checkable' as const, reason: row.notCheckable };
    if (row.todo) return { ...base, outcome: 'not checked yet' as const, reason: row.todo };
    // A rule that found nothing may have met nothing it applies to (no 429, no rounds): beside a
    // property it only breaks a row; alone it holds one when the run made calls.
    const own = row.checks!.filter((c) => !c.startsWith('rule:'));
    const brokenRules = new Set<string>();
    const results = row.checks!.map((check) => {
      if (!check.startsWith('rule:')) {
        const property = outcomes.properties.get(check);
        if (property?.status !== 'failed' || !property.rules?.length) return property?.status ?? 'skipped';
        for (const rule of property.rules) brokenRules.add(rule);
        return 'rule';
      }
      if ((outcomes.rules.get(check.slice(5)) ?? 0) > 0) {
        brokenRules.add(check.slice(5));
        return 'rule';
      }
      return own.length === 0 && outcomes.calls > 0 ? 'passed' : 'skipped';
    });
    // Rules judge every call: only a property that ran part of its cases makes a row "some cases".
    const ran = own.map((c) => outcomes.properties.get(c)).filter((p) => p && p.status !== 'skipped');
    const coverage: RowCoverage = ran.some((p) => p!.coverage === 'some cases') ? 'some cases' : 'every case';
    if (results.includes('failed')) return { ...base, outcome: 'broken' as const, coverage };
    if (brokenRules.size)
      return { ...base, outcome: 'rests on a broken rule' as const, coverage, broken_rules: [...brokenRules] };
    if (results.includes('passed')) return { ...base, outcome: 'held' as const, coverage };
    const reasons = row.checks!.map((c) => outcomes.properties.get(c)?.reason).filter(Boolean);
    return {
      ...base,
      outcome: 'skipped' as const,
      coverage: 'not reached' as const,
      reason: wantOfKey(row, [outcomes.plan]) ?? reasons[0] ?? 'none of its checks ran in this run',
    };
  });
}

/** What a row's result says of the row itself, whatever the run. */
function rowBase(row: MatrixRow, model = false): Pick<MatrixResult, 'id' | 'source' | 'basis' | 'checks' | 'faults'> {
  // Covered by the model only in a run that had one.
  const proof = row.proof === 'model' && !model ? 'none' : row.proof;
  return {
    id: row.id,
    source: row.source,
    basis: row.basis,
    checks: row.checks ?? [],
    faults: row.checks ? (row.faults ?? []) : [],
    ...(proof ? { proof } : {}),
  };
}

/** "needs a key of ...", when none of the run's plans lets the row's checks run. */
function wantOfKey(row: MatrixRow, plansGiven: readonly PlanId[]): string | null {
  const can = rowPlans(row);
  return can.some((p) => plansGiven.includes(p)) ? null : `needs a key of ${can.join(' or ')}`;
}

/**
 * One matrix from the runs of several keys: a row broken by any, else resting on a rule broken by
 * any, else held by any, else skipped.
 */
export function mergeMatrix(runs: MatrixResult[][], plansGiven: readonly PlanId[]): MatrixResult[] {
  return matrix
    .map((row, i) => {
      const seen = runs.map((results) => results[i]!);
      const first = seen[0] ?? { ...rowBase(row), outcome: 'skipped' as const };
      for (const outcome of ['broken', 'rests on a broken rule', 'held'] as const) {
        const hits = seen.filter((r) => r.outcome === outcome);
        // The widest coverage any key gave it: a row checked on every case by one key was checked on every case.
        const hit = hits.find((r) => r.coverage !== 'some cases') ?? hits[0];
        // Covered by the model when any key's run had one.
        const proof = seen.some((r) => r.proof === 'model') ? { proof: 'model' as const } : {};
        if (hit) return { ...hit, ...(hit.proof === 'none' ? proof : {}), reason: undefined };
      }
      if (first.outcome !== 'skipped') return first;
      // A key was given that could check it: why that run did not (a flag, --only, the budget).
      const why = seen.find((r) => r.reason && !r.reason.startsWith('needs a key of'))?.reason;
      return { ...first, reason: wantOfKey(row, plansGiven) ?? why ?? 'none of its checks ran in this run' };
    })
    .map(({ reason, ...rest }) => (reason === undefined ? rest : { ...rest, reason }));
}

export function matrixScore(results: MatrixResult[]): MatrixScore {
  const counted = results.filter((r) => r.outcome !== 'decided elsewhere');
  const ran = (r: MatrixResult) =>
    r.outcome === 'held' || r.outcome === 'broken' || r.outcome === 'rests on a broken rule';
  // Checked: its checks ran and are shown to fail on a breach of it alone (a report before proofs: any that ran).
  const isChecked = (r: MatrixResult) => ran(r) && (r.proof === undefined || r.proof === 'own fault');
  const unproven = counted.filter((r) => ran(r) && !isChecked(r));
  const count = (basis: 'documented' | 'assumed') => ({
    checked: counted.filter((r) => r.basis === basis && isChecked(r)).length,
    held: counted.filter((r) => r.basis === basis && isChecked(r) && r.outcome === 'held').length,
  });
  const documented = count('documented');
  const assumed = count('assumed');
  return {
    rows: counted.length,
    checked: documented.checked + assumed.checked,
    held: documented.held + assumed.held,
    broken: counted.filter((r) => isChecked(r) && r.outcome === 'broken').length,
    rests_on_broken_rule: counted.filter((r) => isChecked(r) && r.outcome === 'rests on a broken rule').length,
    every_case: counted.filter((r) => isChecked(r) && r.coverage !== 'some cases').length,
    some_cases: counted.filter((r) => isChecked(r) && r.coverage === 'some cases').length,
    shown_to_fail: counted.filter((r) => isChecked(r) && r.faults.length > 0).length,
    covered_by_model: unproven.filter((r) => r.proof === 'model').length,
    unproven: unproven.filter((r) => r.proof !== 'model').length,
    documented,
    assumed,
    not_checkable: counted.filter((r) => r.outcome === 'not checkable').length,
    not_checked_yet:
      counted.filter((r) => r.outcome === 'not checked yet').length +
      unproven.filter((r) => r.proof !== 'model').length,
    skipped: counted.filter((r) => r.outcome === 'skipped').length,
  };
}
