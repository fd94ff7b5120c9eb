/**
 * The sites of the four families of sentences (`meaning`, `source`, `case`, `sequence`), from the
 * contract and the sampled answers: a field whose schema is an enum, a field of rows that hold two
 * or more, the codes a problem was answered with and the others of its status, an operation that
 * paged, tagged, counted usage or stamped `updated_at`. `sites.ts` adds them to the rest.
 */
import type { PlanId } from '@investor-graph/contract';
import { pathsOf } from './json-paths.ts';
import { answerSchema, fieldRule } from './schema.ts';
import { codesByStatus } from './case-edits.ts';
import type { MutantSpec } from './operators.ts';
import type { Sample } from './sample.ts';

type Spec = Omit<MutantSpec, 'id'>;
/** The first plan, in the sites' order, whose samples of the operation pass `pred`; null when none does. */
export type PlanOf = (pred: (s: Sample) => boolean) => PlanId | null;

const text = (s: Sample) => (s.json === null ? '' : JSON.stringify(s.json));
const has = (s: Sample, ...fields: string[]) => fields.every((f) => text(s).includes(`"${f}":`));
const ok = (s: Sample) => s.status >= 200 && s.status < 300 && s.json !== null && s.method !== 'HEAD';
const paged = (s: Sample) => typeof (s.json as { next_cursor?: unknown } | null)?.next_cursor === 'string';
const rowsWith = (s: Sample, field: string) => {
  const data = (s.json as { data?: unknown } | null)?.data;
  const rows = Array.isArray(data) ? data : data ? [data] : [];
  return rows.some((r) => r !== null && typeof r === 'object' && field in r);
};

const pathCache = new WeakMap<Sample, ReturnType<typeof pathsOf>>();
const pathsOfSample = (s: Sample) => pathCache.get(s) ?? pathCache.set(s, pathsOf(s.json, 8)).get(s)!;

/** The field sites of ok answers for `enum-other` and `swap-field`, with the first plan that showed each. */
function fieldSpecs(operation: string, list: Sample[], planOf: PlanOf): Spec[] {
  const out = new Map<string, Spec>();
  for (const s of list.filter(ok)) {
    const schema = answerSchema(operation, s.status);
    const paths = pathsOfSample(s);
    for (const [key, found] of paths) {
      const { parts, kinds } = found;
      const scalar = [...kinds].every((k) => k !== 'array' && k !== 'object');
      const plan = planOf((x) => ok(x) && pathsOfSample(x).has(key))!;
      if (scalar && parts.at(-1) !== 'code' && fieldRule(schema, parts)?.values)
        out.set(`e${key}`, { family: 'meaning', operator: 'enum-other', operation, plan, target: parts });
      // A field of rows, where the sample held two rows of the array or more.
      const rows = parts.length >= 2 && parts.at(-2) === '[]' ? paths.get(JSON.stringify(parts.slice(0, -2))) : null;
      if (scalar && rows && rows.arrayOfObjects >= 2 && !kinds.has('null'))
        out.set(`s${key}`, { family: 'source', operator: 'swap-field', operation, plan, target: parts });
    }
  }
  return [...out.values()];
}

/** Every mutant of the four families the samples of one operation give sites for. */
export function sentenceMutants(operation: string, list: Sample[], planOf: PlanOf, withPath: boolean): Spec[] {
  const specs: Spec[] = fieldSpecs(operation, list, planOf);
  const add = (family: MutantSpec['family'], operator: string, plan: PlanId | null, more: Partial<Spec> = {}) => {
    if (plan) specs.push({ family, operator, operation, plan, ...more });
  };
  add(
    'meaning',
    'amount-as-usd',
    planOf((s) => ok(s) && has(s, 'amount', 'currency', 'amount_usd')),
  );
  add(
    'meaning',
    'remaining-as-limit',
    planOf((s) => ok(s) && has(s, 'usage', 'calls_remaining')),
  );
  add(
    'meaning',
    'member-count-firms',
    planOf((s) => ok(s) && has(s, 'members', 'member_count')),
  );
  add(
    'meaning',
    'total-as-last-round',
    planOf((s) => ok(s) && has(s, 'total_raised_usd', 'last_round')),
  );
  add('meaning', 'cursor-of-other', planOf(paged));
  add(
    'source',
    'updated-at-other',
    planOf((s) => ok(s) && rowsWith(s, 'updated_at')),
  );
  if (withPath)
    add(
      'source',
      'parent-other',
      planOf((s) => ok(s) && rowsWith(s, 'updated_at')),
    );
  add('sequence', 'page-overlap', planOf(paged));
  add(
    'sequence',
    'usage-jump',
    planOf((s) => ok(s) && has(s, 'usage', 'calls_used')),
  );
  add(
    'sequence',
    'updated-at-back',
    planOf((s) => ok(s) && rowsWith(s, 'updated_at')),
  );
  add(
    'sequence',
    'etag-shared',
    planOf((s) => ok(s) && s.headers.includes('etag') && paged(s)),
  );
  add(
    'case',
    'challenge-flip',
    planOf((s) => s.status === 401 && s.headers.includes('www-authenticate')),
  );
  add(
    'case',
    'not-modified-miss',
    planOf((s) => ok(s) && s.headers.includes('etag')),
  );
  add(
    'case',
    'limiter-on-refused',
    planOf((s) => s.status === 400 || s.status === 401),
  );
  // A problem's code answered as another case of its status.
  const codes = new Set(
    list.map((s) => (s.json as { code?: unknown } | null)?.code).filter((c): c is string => typeof c === 'string'),
  );
  for (const code of [...codes].sort()) {
    const plan = planOf((s) => (s.json as { code?: unknown } | null)?.code === code);
    const status = list.find((s) => (s.json as { code?: unknown } | null)?.code === code)!.status;
    for (const other of (codesByStatus[status] ?? []).filter((c) => c !== code))
      add('case', 'problem-code', plan, { target: code, value: other });
  }
  return specs;
}
