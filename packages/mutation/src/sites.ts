/**
 * Every mutant, enumerated from the contract and the sampled answers: each operator at each site
 * it applies to (a field path an operation's answers hold, an array of rows, a status the
 * operation answered and the documented ones of its class, a header it sent, a cursor, another
 * plan of the plan table, a later call). Nothing is picked by hand; `pickMutants` samples them.
 */
import { createHash } from 'node:crypto';
import { operationById, planIds, plans, type PlanId } from '@investor-graph/contract';
import { pathText, pathsOf, type ValueKind } from './json-paths.ts';
import { answerSchema, fieldRule } from './schema.ts';
import { mutableHeaders } from './header-alters.ts';
import type { MutantSpec } from './operators.ts';
import type { Sample } from './sample.ts';
import { sentenceMutants } from './sentence-sites.ts';

/** Plans in the order a site takes its key from: the first whose answers showed it. */
const planOrder: PlanId[] = ['enterprise', 'team', 'business', 'payg', 'trial'];

function mutantId(m: Omit<MutantSpec, 'id'>): string {
  const target = Array.isArray(m.target) ? pathText(m.target) : m.target;
  return [m.family, m.operator, m.operation, target ?? '', m.value ?? '', m.answers ?? ''].join(':').replace(/:+$/, '');
}

interface FieldSite {
  operation: string;
  answers: 'ok' | 'error';
  status: number;
  parts: string[];
  kinds: Set<ValueKind>;
  rows: number;
  plan: PlanId;
}

/** The field paths each operation's answers held, merged over the samples, with the first plan that showed each. */
function fieldSites(samples: Sample[]): FieldSite[] {
  const sites = new Map<string, FieldSite>();
  for (const s of samples) {
    if (s.json === null || (s.method !== 'GET' && s.method !== 'POST')) continue;
    const answers = s.status < 300 ? 'ok' : 'error';
    for (const [key, found] of pathsOf(s.json, s.operation === 'getOpenApiDocument' ? 2 : 12)) {
      const id = `${s.operation} ${answers} ${key}`;
      const site = sites.get(id) ?? {
        operation: s.operation,
        answers,
        status: s.status,
        parts: found.parts,
        kinds: new Set(),
        rows: 0,
        plan: s.plan,
      };
      found.kinds.forEach((k) => site.kinds.add(k));
      site.rows = Math.max(site.rows, found.arrayOfObjects);
      if (planOrder.indexOf(s.plan) < planOrder.indexOf(site.plan)) site.plan = s.plan;
      sites.set(id, site);
    }
  }
  return [...sites.values()];
}

function fieldMutants(site: FieldSite): Omit<MutantSpec, 'id'>[] {
  const rule = fieldRule(answerSchema(site.operation, site.status), site.parts);
  const base = { operation: site.operation, plan: site.plan, answers: site.answers, target: site.parts };
  const element = site.parts.at(-1) === '[]';
  const k = site.kinds;
  const out: Omit<MutantSpec, 'id'>[] = [];
  const add = (
    family: 'field-shape' | 'field-value',
    operator: string,
    when: boolean,
    equivalent?: string | false | null,
  ) => {
    if (when) out.push({ ...base, family, operator, ...(equivalent ? { equivalent } : {}) });
  };
  add(
    'field-shape',
    'drop',
    !element,
    rule && !rule.required && 'the contract does not require this field: a correct answer may leave it out',
  );
  add(
    'field-shape',
    'null',
    [...k].some((x) => x !== 'null'),
    rule?.nullable && 'the contract lets this field be null: a correct answer may hold null here',
  );
  add('field-shape', 'retype', true);
  add('field-value', 'plus-one', k.has('number'));
  add('field-value', 'minus-one', k.has('number'));
  add('field-value', 'day-later', k.has('date'));
  add('field-value', 'day-earlier', k.has('date'));
  add(
    'field-value',
    'upper-case',
    k.has('string'),
    rule?.anyText && 'the contract allows any text here, in capitals too',
  );
  add(
    'field-value',
    'empty',
    k.has('string'),
    rule?.mayBeEmpty && 'the contract allows any text here, the empty one too',
  );
  if (site.answers === 'ok' && site.rows >= 1) {
    for (const operator of ['drop-first', 'drop-last', 'repeat', 'reverse', 'swap']) {
      if (site.rows >= 2 || operator.startsWith('drop') || operator === 'repeat')
        out.push({ family: 'rows', operator, operation: site.operation, plan: site.plan, target: site.parts });
    }
  }
  return out;
}

/** Every mutant the samples give sites for, sorted by id. */
export function enumerateMutants(samples: Sample[]): MutantSpec[] {
  const specs: Omit<MutantSpec, 'id'>[] = fieldSites(samples).flatMap(fieldMutants);
  const byOperation = new Map<string, Sample[]>();
  for (const s of samples) byOperation.set(s.operation, [...(byOperation.get(s.operation) ?? []), s]);
  for (const [operation, list] of byOperation) {
    const planOf = (pred: (s: Sample) => boolean): PlanId | null =>
      planOrder.find((p) => list.some((s) => s.plan === p && pred(s))) ?? null;
    const documented = Object.keys(operationById(operation).responses)
      .map(Number)
      .filter((n) => n >= 400 && n < 500);
    // Statuses within their class: a success as 203 or 206, an error as another documented 4xx.
    for (const status of [...new Set(list.map((s) => s.status))].sort()) {
      const plan = planOf((s) => s.status === status)!;
      const others =
        status < 300 && status !== 204
          ? [203, 206]
          : status >= 400 && status < 500
            ? documented.filter((n) => n !== status)
            : [];
      for (const value of others)
        specs.push({ family: 'status', operator: 'within-class', operation, plan, target: status, value });
    }
    for (const header of [...new Set(list.flatMap((s) => s.headers))].filter((h) => mutableHeaders.test(h)).sort()) {
      const plan = planOf((s) => s.headers.includes(header))!;
      for (const operator of ['drop', 'alter'])
        specs.push({ family: 'header', operator, operation, plan, target: header });
    }
    const envelope = (s: Sample) => s.status < 300 && s.json !== null && typeof s.json === 'object' && 'plan' in s.json;
    const paged = planOf((s) => typeof (s.json as { next_cursor?: unknown } | null)?.next_cursor === 'string');
    if (paged)
      for (const operator of ['end-early', 'never-end', 'unchanged'])
        specs.push({ family: 'cursor', operator, operation, plan: paged });
    const plan = planOf(envelope);
    if (plan) {
      const own = plans[plan];
      for (const other of planIds.filter((p) => p !== plan)) {
        specs.push({ family: 'plan', operator: 'plan-object', operation, plan, value: other });
        if (plans[other].calls_limit !== own.calls_limit)
          specs.push({ family: 'plan', operator: 'usage-limit', operation, plan, value: other });
        if (list.some((s) => s.headers.includes('ratelimit-policy')))
          specs.push({ family: 'plan', operator: 'rate-policy', operation, plan, value: other });
        if (
          plans[other].rows_per_page < own.rows_per_page &&
          list.some((s) => Array.isArray((s.json as { data?: unknown } | null)?.data))
        ) {
          specs.push({ family: 'plan', operator: 'page-size', operation, plan, value: other });
        }
      }
      const has = (field: string) => list.some((s) => envelope(s) && JSON.stringify(s.json).includes(`"${field}":`));
      for (const [operator, when] of [
        ['usage-frozen', has('usage')],
        ['usage-double', has('calls_used')],
        ['as-of-back', has('as_of')],
        ['updated-at-churn', has('updated_at')],
      ] as const) {
        if (when) specs.push({ family: 'stateful', operator, operation, plan });
      }
    }
    specs.push(...sentenceMutants(operation, list, planOf, operationById(operation).path.includes('{')));
    const tagged = planOf((s) => s.status < 300 && s.headers.includes('etag'));
    if (tagged) specs.push({ family: 'stateful', operator: 'etag-churn', operation, plan: tagged });
  }
  const unique = new Map(specs.map((s) => [mutantId(s), { id: mutantId(s), ...s }]));
  return [...unique.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A mutant's place in a seed's order: its own hash, so a site missing from one run moves no other mutant. */
const rank = (seed: number, id: string) => createHash('sha256').update(`${seed}:${id}`).digest('hex');

/**
 * A stratified sample: an even share of `size` to each family (what a small family cannot use goes
 * to the others), and within a family the operators in turn, each operator's sites in a seeded order.
 */
export function pickMutants(all: readonly MutantSpec[], size: number, seed: number): MutantSpec[] {
  const queues = new Map<string, MutantSpec[][]>();
  for (const family of [...new Set(all.map((m) => m.family))]) {
    const ofFamily = all.filter((m) => m.family === family);
    const operators = [...new Set(ofFamily.map((m) => m.operator))];
    const ordered = (list: MutantSpec[]) =>
      list
        .map((m) => ({ m, r: rank(seed, m.id) }))
        .sort((a, b) => (a.r < b.r ? -1 : 1))
        .map((x) => x.m);
    queues.set(
      family,
      operators.map((op) => ordered(ofFamily.filter((m) => m.operator === op))),
    );
  }
  const picked: MutantSpec[] = [];
  const turn = new Map<string, number>();
  // Families in turn, one mutant each, until the size is reached or every family is spent.
  while (picked.length < Math.min(size, all.length)) {
    for (const [family, lists] of queues) {
      if (picked.length >= size) break;
      // The next operator in turn that has a site left: one run dry moves no other operator's turn.
      const t = turn.get(family) ?? 0;
      const k = lists.findIndex((_, i) => lists[(t + i) % lists.length]!.length > 0);
      if (k < 0) continue;
      turn.set(family, t + k + 1);
      picked.push(lists[(t + k) % lists.length]!.shift()!);
    }
  }
  return picked;
}
