/**
 * The rule matrix: a row for every sentence of the spec (contracts/SPEC.md) and of
 * contracts/DECISIONS.md, and for every `x-assumed` spot of the contract, each with the checks
 * that judge it and the faults of the mock they are shown to catch (claims.ts), or why no
 * client can check it, or what is still missing. rule-matrix.test.ts fails when a sentence has no
 * row or a row names a check or fault that does not exist; the README's table, the JSON report and
 * the score are all made from these rows, and the score counts sentences.
 */
import { openapiDocument, plans, planIds, type PlanId } from '@investor-graph/contract';
import { claims, spotClaims, type Claim } from '../sentences/claims.ts';
import { allRules, type AnyRuleId } from '../judges/judges.ts';
import type { SuiteContext } from '../core/context.ts';
import { sentences } from '../sentences/generated/sentences.ts';
import { properties, type Property } from '../properties.ts';
import { assumedSpots } from '../sentences/sentences.ts';
import { modelSections } from '../sentences/pointer-sentences.ts';

/** A row: a sentence or a contract spot, with what its claim says of it (claims.ts). */
export interface MatrixRow extends Omit<Claim, 'says'> {
  /** `spec 4.3`, `cursor.2` (DECISIONS.md#cursor), or `contract <JSON pointer>`. */
  id: string;
  /** `spec §4`, `DECISIONS.md#cursor`, or `x-assumed` with the decisions the spot rests on. */
  source: string;
  /** The sentence, or the contract spot. */
  rule: string;
  /** documented: the spec says it; assumed: the kit decided it where the spec says "not shown". */
  basis: 'documented' | 'assumed';
  /**
   * For a row with checks, what shows they can fail on a breach of it: a fault of the mock that its
   * claim alone lists (it breaks these sentences and no other), the model comparing what it fixes
   * (in a run with a model), or nothing yet (its faults break other sentences too).
   */
  proof?: RowProof;
}

export type RowProof = 'own fault' | 'model' | 'none';

/** How many claims list each fault: a fault listed by one breaks that claim's sentences alone. */
const faultClaims = new Map<string, number>();
for (const claim of [...claims, ...spotClaims.map((s) => s.claim)])
  for (const fault of claim.faults ?? []) faultClaims.set(fault, (faultClaims.get(fault) ?? 0) + 1);

/** The section of a row's id (`limit` of `limit.2`, `spec 2` of `spec 2.3`). */
const sectionOf = (id: string): string => id.slice(0, id.lastIndexOf('.'));

function proofOf(row: Omit<MatrixRow, 'proof'>): RowProof | undefined {
  if (!row.checks) return undefined;
  if (row.faults?.some((f) => faultClaims.get(f) === 1)) return 'own fault';
  return modelSections.has(sectionOf(row.id)) || modelSections.has(row.id) || row.inputs?.length ? 'model' : 'none';
}

/** The claim whose fragment is in the sentence, or undefined (the matrix test says which sentences have none). */
export function claimFor(text: string): Claim | undefined {
  return claims.find((claim) => claim.says.some((fragment) => text.includes(fragment)));
}

function fromClaim(claim: Claim | undefined): Omit<MatrixRow, 'id' | 'source' | 'rule' | 'basis'> {
  if (!claim) return { todo: 'no claim in claims.ts finds this sentence' };
  const { says: _says, ...rest } = claim;
  return rest;
}

const rows: readonly Omit<MatrixRow, 'proof'>[] = [
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
      todo: 'no spot claim in claims.ts matches this spot',
    }),
  })),
];

export const matrix: readonly MatrixRow[] = rows.map((row) => {
  const proof = proofOf(row);
  return proof ? { ...row, proof } : row;
});

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
  // Only a fault no other claim lists shows a check fails on this sentence (rule-matrix.ts: proofOf).
  const faults = (row: MatrixRow) => {
    if (!row.checks) return '';
    const listed = (row.faults ?? []).map((f) => `\`${f}\``).join(', ');
    if (row.proof === 'own fault') return listed;
    const shared = listed ? ` (${listed} break other sentences too)` : '';
    return row.proof === 'model' ? `covered by the model${shared}` : `**none of its own**${shared}`;
  };
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
