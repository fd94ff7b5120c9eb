/**
 * The rule matrix: a row for every sentence of the spec (contracts/SPEC.md) and of
 * contracts/DECISIONS.md, and for every `x-assumed` spot of the contract, each with the checks
 * that judge it and the faults of the mock they are shown to catch (src/claims.ts), or why no
 * client can check it, or what is still missing. rule-matrix.test.ts fails when a sentence has no
 * row or a row names a check or fault that does not exist; the README's table, the JSON report and
 * the score are all made from these rows, and the score counts sentences.
 */
import { openapiDocument, plans, planIds, type PlanId } from '@investor-graph/contract';
import { claims, spotClaims, type Claim } from './claims.ts';
import { allRules, type AnyRuleId } from '../core/judges.ts';
import type { SuiteContext } from '../core/context.ts';
import { sentences } from './generated/sentences.ts';
import { properties, type Property } from '../properties.ts';
import { assumedSpots } from './sentences.ts';

/** A row: a sentence or a contract spot, with what its claim says of it (src/claims.ts). */
export interface MatrixRow extends Omit<Claim, 'says'> {
  /** `spec 4.3`, `cursor.2` (DECISIONS.md#cursor), or `contract <JSON pointer>`. */
  id: string;
  /** `spec §4`, `DECISIONS.md#cursor`, or `x-assumed` with the decisions the spot rests on. */
  source: string;
  /** The sentence, or the contract spot. */
  rule: string;
  /** documented: the spec says it; assumed: the kit decided it where the spec says "not shown". */
  basis: 'documented' | 'assumed';
}

/** The claim whose fragment is in the sentence, or undefined (the matrix test says which sentences have none). */
export function claimFor(text: string): Claim | undefined {
  return claims.find((claim) => claim.says.some((fragment) => text.includes(fragment)));
}

function fromClaim(claim: Claim | undefined): Omit<MatrixRow, 'id' | 'source' | 'rule' | 'basis'> {
  if (!claim) return { todo: 'no claim in src/claims.ts finds this sentence' };
  const { says: _says, ...rest } = claim;
  return rest;
}

export const matrix: readonly MatrixRow[] = [
  ...sentences.map((s): MatrixRow => ({
    id: s.id,
    source: s.source === 'spec' ? `spec §${s.id.slice(5).split('.')[0]}` : `DECISIONS.md#${s.section}`,
    rule: s.text,
    basis: s.source === 'spec' ? 'documented' : 'assumed',
    ...fromClaim(claimFor(s.text)),
  })),
  ...assumedSpots(openapiDocument).map((spot): MatrixRow => ({
    id: `contract ${spot.pointer}`,
    source: `x-assumed: ${spot.anchors.map((a) => `DECISIONS.md#${a}`).join(', ')}`,
    rule: `the contract at ${spot.pointer} carries ${spot.anchors.join(', ')}`,
    basis: 'assumed',
    ...(spotClaims.find((s) => s.at.test(spot.pointer))?.claim ?? {
      todo: 'no spot claim in src/claims.ts matches this spot',
    }),
  })),
];

/** Rows that state a rule: a "not shown" sentence of the spec only points at the decisions that fill it. */
export const ruleRows = matrix.filter((row) => !row.decided);
/** A check named in the matrix: a property of this package or a single-response rule. */
export function checkExists(check: string): boolean {
  return check.startsWith('rule:') ? Object.hasOwn(allRules, check.slice(5)) : properties.some((p) => p.id === check);
}

/** The plans whose key lets a property run (flags such as --use-control given). */
export function plansFor(property: Property): PlanId[] {
  return planIds.filter((plan) => property.skip(stubContext(plan)) === null);
}

/** The most calls one generated case of a property spends, on a plan. */
export function callsPerCase(property: Property, plan: PlanId): number {
  return property.cost(stubContext(plan)).calls;
}

/** What a property's skip and cost read of a run, for a plan, with every flag on. */
function stubContext(plan: PlanId): SuiteContext {
  return {
    config: { plan, allowRate: true, useControl: true, failedAuthBurst: true, baseUrl: 'http://127.0.0.1' },
    control: true,
    client: { rowCost: (rows: number) => (plan === 'payg' ? Math.max(rows, plans.payg.min_rows_per_call!) : rows) },
  } as unknown as SuiteContext;
}

export const ruleIds = Object.keys(allRules) as AnyRuleId[];

const propertyOf = (check: string): Property | undefined => properties.find((p) => p.id === check);

/** The plans a row can be checked on: any, or those on which one of its properties runs. */
export function rowPlans(row: MatrixRow): PlanId[] {
  if (!row.checks) return [];
  // A rule judges whatever calls the run makes; a row with properties is checked where they run.
  const own = row.checks.map(propertyOf).filter((p): p is Property => !!p);
  if (!own.length) return [...planIds];
  return planIds.filter((plan) => own.some((p) => plansFor(p).includes(plan)));
}

/** The calls one case of each of a row's properties spends on a Team key (a rule's checks spend none of their own). */
export function rowCalls(row: MatrixRow): number {
  return (row.checks ?? [])
    .map(propertyOf)
    .filter((p): p is Property => !!p)
    .reduce((sum, p) => sum + callsPerCase(p, 'team'), 0);
}

/** The matrix as the README shows it (between its rule-matrix markers). */
export function renderMatrix(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const plansCell = (row: MatrixRow) => {
    const on = rowPlans(row);
    return on.length === planIds.length ? 'any' : on.join(', ');
  };
  const source = (row: MatrixRow) =>
    row.source.startsWith('DECISIONS.md#')
      ? `[${row.source.slice(13)}](../../contracts/DECISIONS.md#${row.source.slice(13)})`
      : cell(row.source);
  const checked = (row: MatrixRow) =>
    row.decided
      ? `decided in ${row.decided.map((d) => `[${d}](../../contracts/DECISIONS.md#${d})`).join(', ')}`
      : row.checks
        ? `${row.checks.map((c) => `\`${c}\``).join(', ')}${row.note ? ` (${cell(row.note)})` : ''}`
        : row.notCheckable
          ? `not checkable from outside: ${cell(row.notCheckable)}`
          : `**not checked yet**: ${cell(row.todo!)}`;
  const faults = (row: MatrixRow) =>
    row.checks ? (row.faults?.length ? row.faults.map((f) => `\`${f}\``).join(', ') : '**none yet**') : '';
  return [
    '| row | what it says | source | checked by | shown to fail on | plans | calls a case |',
    '|---|---|---|---|---|---|---|',
    ...matrix.map(
      (row) =>
        `| ${cell(row.id)} | ${cell(row.rule)} | ${source(row)} | ${checked(row)} | ` +
        `${faults(row)} | ${row.checks ? plansCell(row) : ''} | ` +
        `${row.checks ? rowCalls(row) : ''} |`,
    ),
    '',
  ].join('\n');
}

export type RowOutcome = 'held' | 'broken' | 'skipped' | 'not checkable' | 'not checked yet' | 'decided elsewhere';

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
  /** Why it was skipped, cannot be checked, or is not checked yet; for a "not shown" sentence, the decisions. */
  reason?: string;
}

export interface MatrixScore {
  /** Rows that state a rule: sentences and contract spots, less the spec's "not shown" sentences. */
  rows: number;
  checked: number;
  held: number;
  /** Checked rows whose checks that ran ran every case, and those of which some ran only some cases. */
  every_case: number;
  some_cases: number;
  /** Checked rows whose checks are shown to fail on a fault of the mock made for them. */
  shown_to_fail: number;
  documented: { checked: number; held: number };
  assumed: { checked: number; held: number };
  not_checkable: number;
  not_checked_yet: number;
  /** Rows of this run's matrix that no check of the run reached (another key, a flag, the budget). */
  skipped: number;
}

/**
 * Each row's outcome in a run: broken when one of its checks failed; held when one ran and none
 * failed; skipped when none of its checks ran.
 */
export function matrixResults(outcomes: {
  properties: Map<string, { status: string; reason?: string; coverage?: string }>;
  rules: Map<string, number>;
  calls: number;
  plan: PlanId;
}): MatrixResult[] {
  return matrix.map((row) => {
    const base = rowBase(row);
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
    const results = row.checks!.map((check) => {
      if (!check.startsWith('rule:')) return outcomes.properties.get(check)?.status ?? 'skipped';
      if ((outcomes.rules.get(check.slice(5)) ?? 0) > 0) return 'failed';
      return own.length === 0 && outcomes.calls > 0 ? 'passed' : 'skipped';
    });
    // Rules judge every call: only a property that ran part of its cases makes a row "some cases".
    const ran = own.map((c) => outcomes.properties.get(c)).filter((p) => p && p.status !== 'skipped');
    const coverage: RowCoverage = ran.some((p) => p!.coverage === 'some cases') ? 'some cases' : 'every case';
    if (results.includes('failed')) return { ...base, outcome: 'broken' as const, coverage };
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
function rowBase(row: MatrixRow): Pick<MatrixResult, 'id' | 'source' | 'basis' | 'checks' | 'faults'> {
  return {
    id: row.id,
    source: row.source,
    basis: row.basis,
    checks: row.checks ?? [],
    faults: row.checks ? (row.faults ?? []) : [],
  };
}

/** "needs a key of ...", when none of the run's plans lets the row's checks run. */
function wantOfKey(row: MatrixRow, plansGiven: readonly PlanId[]): string | null {
  const can = rowPlans(row);
  return can.some((p) => plansGiven.includes(p)) ? null : `needs a key of ${can.join(' or ')}`;
}

/** One matrix from the runs of several keys: a row broken by any, else held by any, else skipped. */
export function mergeMatrix(runs: MatrixResult[][], plansGiven: readonly PlanId[]): MatrixResult[] {
  return matrix
    .map((row, i) => {
      const seen = runs.map((results) => results[i]!);
      const first = seen[0] ?? { ...rowBase(row), outcome: 'skipped' as const };
      for (const outcome of ['broken', 'held'] as const) {
        const hits = seen.filter((r) => r.outcome === outcome);
        // The widest coverage any key gave it: a row checked on every case by one key was checked on every case.
        const hit = hits.find((r) => r.coverage !== 'some cases') ?? hits[0];
        if (hit) return { ...hit, reason: undefined };
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
  const isChecked = (r: MatrixResult) => r.outcome === 'held' || r.outcome === 'broken';
  const count = (basis: 'documented' | 'assumed') => ({
    checked: counted.filter((r) => r.basis === basis && isChecked(r)).length,
    held: counted.filter((r) => r.basis === basis && r.outcome === 'held').length,
  });
  const documented = count('documented');
  const assumed = count('assumed');
  return {
    rows: counted.length,
    checked: documented.checked + assumed.checked,
    held: documented.held + assumed.held,
    every_case: counted.filter((r) => isChecked(r) && r.coverage !== 'some cases').length,
    some_cases: counted.filter((r) => isChecked(r) && r.coverage === 'some cases').length,
    shown_to_fail: counted.filter((r) => isChecked(r) && r.faults.length > 0).length,
    documented,
    assumed,
    not_checkable: counted.filter((r) => r.outcome === 'not checkable').length,
    not_checked_yet: counted.filter((r) => r.outcome === 'not checked yet').length,
    skipped: counted.filter((r) => r.outcome === 'skipped').length,
  };
}

/**
 * The rows a run did not reach, grouped by why (a key of another plan, a flag, the budget), a line
 * a reason: what a user adds to check them.
 */
export function unreachedLines(results: MatrixResult[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results)
    if (r.outcome === 'skipped')
      byReason.set(r.reason ?? 'none of its checks ran', [
        ...(byReason.get(r.reason ?? 'none of its checks ran') ?? []),
        r.id,
      ]);
  return [...byReason]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([reason, ids]) =>
        `not reached: ${ids.length} row${ids.length === 1 ? '' : 's'} ` +
        `(${ids.slice(0, 4).join(', ')}${ids.length > 4 ? ', ...' : ''}): ${reason}`,
    );
}

/** The score in a line, as the CLI closes with it. */
export function scoreLine(score: MatrixScore): string {
  const coverage =
    score.every_case === undefined
      ? ''
      : ` (${score.every_case} checked on every case, ${score.some_cases} on some cases)`;
  return (
    `rules: ${score.held} held of ${score.checked} checked${coverage}, of ${score.rows} ` +
    `sentences and contract spots (documented ` +
    `${score.documented.held}/${score.documented.checked}, assumed ` +
    `${score.assumed.held}/${score.assumed.checked}); ${score.shown_to_fail} of the checked ` +
    `shown to fail on a fault; ${score.skipped} not reached by this run, ` +
    `${score.not_checkable} not checkable from outside, ${score.not_checked_yet} not checked yet`
  );
}
