/**
 * Rules across calls: what one answer cannot show alone but the run's calls in order do, judged on
 * every call any property makes, as the single-response rules are (@investor-graph/contract's
 * rules), and failing the property whose call showed the break. Usage and the RateLimit quota move
 * with the calls made; a walk's pages continue in order and end. Each keeps a bounded memory.
 */
import { operationFor, rules, type RuleId, type RuleInfo } from '@investor-graph/contract';

/** A JSON object's members, or undefined for anything else: what the judges read of answers they did not write. */
type Members = Partial<Record<string, unknown>>;
const membersOf = (value: unknown): Members | undefined =>
  typeof value === 'object' && value !== null ? value : undefined;

/** A row's key, as its list is ordered by: slug, id, accession number or private fund id (null for a dump day). */
export const keyOf = (row: unknown): string | null => {
  const of = membersOf(row);
  const key = of?.slug ?? of?.id ?? of?.accession_number ?? of?.private_fund_id;
  return typeof key === 'string' ? key : null;
};

export type JudgeId = 'usage-counters' | 'walk-order' | 'model';
export type AnyRuleId = RuleId | JudgeId;

export const judges: Record<JudgeId, RuleInfo> = {
  'usage-counters': {
    title:
      'usage and the RateLimit quota move with the calls made: calls_used up one for each call ' +
      "counted, the quota's remaining down one, a pay-as-you-go balance down by what each call charged",
    spec: '2. Response envelope',
    assumed: ['plan-and-usage-in-the-envelope', 'pay-as-you-go-billing', 'http-conventions'],
  },
  'walk-order': {
    title:
      'a walk goes on in order and ends: each page after the last row of the page before, a ' +
      'cursor never handed back unchanged, none leading to an empty page',
    spec: '4. Endpoints',
    assumed: ['cursor', 'filters-and-sort-order'],
  },
  model: {
    title:
      "every answer is the one the kit's engine gives as a model of the service, on the service's own " +
      'data: status, problem, the headers the contract fixes, the body member by member, usage moved',
    spec: null,
    assumed: ['model-comparison'],
  },
};

/** Every rule a run judges: the single-response rules and these. */
export const allRules: Record<AnyRuleId, RuleInfo> = { ...rules, ...judges };

/** A call as the judges see it. */
export interface Judged {
  method: string;
  url: URL;
  operationId: string | undefined;
  /** Made with the run's own key. */
  own: boolean;
  /** Another call with the run's key was on its way at the same time: the order of counting is not known. */
  overlapped: boolean;
  status: number;
  headers: Headers;
  body: unknown;
}

const quotaLeft = (headers: Headers): number | null => {
  const item = /(?:^|,)\s*"quota";r=(\d+)/.exec(headers.get('ratelimit') ?? '');
  return item ? Number(item[1]) : null;
};

/**
 * What the calls since the last figures add up to: calls counted, rows charged (null when a call's
 * charge cannot be known).
 */
interface Since {
  counted: number;
  charged: number | null;
}

export class UsageJudge {
  #used: { value: number; period: unknown; since: Since } | null = null;
  #balance: { value: number; since: Since } | null = null;
  #left: { value: number; since: Since } | null = null;

  observe(call: Judged): string[] {
    if (!call.own) return [];
    // Concurrent calls with the key count in an order the run cannot know: the figures start again after them.
    if (call.overlapped) {
      this.#used = this.#balance = this.#left = null;
      return [];
    }
    // The account is read free, also by HEAD (the contract's operation is its GET's, DECISIONS.md#account).
    const asGet = call.method === 'HEAD' ? operationFor('GET', call.url.pathname)?.operationId : undefined;
    const account = (call.operationId ?? asGet) === 'getAccount';
    const counted = (call.status === 200 || call.status === 304) && !account ? 1 : 0;
    const body = membersOf(call.body);
    const usage = membersOf(
      call.status === 200
        ? call.operationId === 'getAccount'
          ? membersOf(body?.data)?.usage
          : body?.usage
        : undefined,
    );
    // A HEAD is charged as its GET, whose rows it does not show; a 304 charges none.
    const charged = !counted
      ? 0
      : call.status === 304
        ? 0
        : typeof usage?.rows_charged === 'number'
          ? usage.rows_charged
          : null;
    for (const figure of [this.#used, this.#balance, this.#left]) {
      if (!figure) continue;
      figure.since.counted += counted;
      figure.since.charged = figure.since.charged === null || charged === null ? null : figure.since.charged + charged;
    }
    const out: string[] = [];
    const fresh = (): Since => ({ counted: 0, charged: 0 });
    if (usage && typeof usage.calls_used === 'number' && usage.calls_limit !== null) {
      const before = this.#used;
      if (before && before.period === usage.period_start && usage.calls_used !== before.value + before.since.counted) {
        out.push(
          `calls_used ${usage.calls_used}, where ${before.value} and the ${before.since.counted} ` +
            `call${before.since.counted === 1 ? '' : 's'} counted since make ` +
            `${before.value + before.since.counted}`,
        );
      }
      this.#used = { value: usage.calls_used, period: usage.period_start, since: fresh() };
    }
    if (usage && typeof usage.balance_rows === 'number') {
      const before = this.#balance;
      if (before && before.since.charged !== null && usage.balance_rows !== before.value - before.since.charged) {
        out.push(
          `balance_rows ${usage.balance_rows}, where ${before.value} less the ` +
            `${before.since.charged} rows charged since make ${before.value - before.since.charged}`,
        );
      }
      this.#balance = { value: usage.balance_rows, since: fresh() };
    }
    const left = quotaLeft(call.headers);
    if (left !== null && !account) {
      const before = this.#left;
      if (before && left !== before.value - before.since.counted)
        out.push(
          `the RateLimit quota's ${left} calls left, where ${before.value} less the ` +
            `${before.since.counted} counted since make ${before.value - before.since.counted}`,
        );
      this.#left = { value: left, since: fresh() };
    }
    return out;
  }
}

/**
 * Lists whose pages run in ascending order of the row's key (the feed by sequence; the dump
 * manifest, newest first, is not one).
 */
const orderOf = (operationId: string | undefined, row: unknown): string | number | null => {
  if (operationId !== 'listChanges') return operationId === 'getExportManifest' ? null : keyOf(row);
  const sequence = membersOf(row)?.sequence;
  return typeof sequence === 'number' ? sequence : null;
};

export class WalkJudge {
  /** By the cursor a page handed out: that page's list, last key and data time. */
  readonly #issued = new Map<string, { path: string; last: string | number | null; asOf: unknown }>();
  readonly #max: number;

  constructor(max = 2_000) {
    this.#max = max;
  }

  observe(call: Judged): string[] {
    const body = membersOf(call.body);
    const data = body?.data;
    if (call.status !== 200 || call.method !== 'GET' || !body || !Array.isArray(data) || !('next_cursor' in body))
      return [];
    const out: string[] = [];
    const cursor = call.url.searchParams.get('cursor');
    const next = body.next_cursor;
    const before = cursor ? this.#issued.get(cursor) : undefined;
    if (cursor !== null && next === cursor)
      out.push('the page hands back the cursor it was asked with: a walk never ends');
    if (before && before.path === call.url.pathname && data.length === 0 && before.asOf === body.as_of)
      out.push(
        'a page reached by the cursor the page before handed out holds no row: that page was the ' +
          'last, and its next_cursor should have been null',
      );
    const keys = data.map((row) => orderOf(call.operationId, row));
    if (keys.every((k) => k !== null)) {
      const back = keys.findIndex((k, i) => i > 0 && !(k > keys[i - 1]!));
      if (back > 0) out.push(`row ${keys[back]} after ${keys[back - 1]}: not in ascending order of its key`);
      if (
        before &&
        before.path === call.url.pathname &&
        before.last !== null &&
        keys.length &&
        !(keys[0]! > before.last)
      )
        out.push(`the page starts at ${keys[0]}, not after ${before.last}, the last row of the page before`);
    }
    if (typeof next === 'string' && next !== cursor) {
      if (this.#issued.size >= this.#max) this.#issued.delete(this.#issued.keys().next().value!);
      this.#issued.set(next, {
        path: call.url.pathname,
        last: keys.length ? (keys.at(-1) ?? null) : (before?.last ?? null),
        asOf: body.as_of,
      });
    }
    return out;
  }
}

/** What the judges find in a call, as findings of their rules. */
export function judge(of: { usage: UsageJudge; walks: WalkJudge }, call: Judged): { rule: JudgeId; message: string }[] {
  return [
    ...of.usage.observe(call).map((message) => ({ rule: 'usage-counters' as const, message })),
    ...of.walks.observe(call).map((message) => ({ rule: 'walk-order' as const, message })),
  ];
}
