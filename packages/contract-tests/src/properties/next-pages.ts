/**
 * The next page of an earlier answer (issue #65): the service's own `next_cursor` sent back with
 * the query it was given for, and the page it leads to judged against the model's own next page of
 * that query (model/cursors.ts), rows and their order. A cursor is opaque: what it leads to is
 * compared, never its bytes. A sequence's command follows a page the sequence got; the walk, a
 * boundary case a paged operation, follows a page the run got of it (else its first page, asked
 * with `limit=1`), so that every paged operation the run touches is followed at least once.
 */
import fc from 'fast-check';
import { operationFor, type OperationInfo } from '@investor-graph/contract';
import type { Spending } from '../client/client.ts';
import { dataOperations, planRule, type SuiteContext } from '../core/context.ts';
import { answerShown, expectedGot } from '../shown/failure-text.ts';
import { sentenceOf } from '../sentences/pointer-sentences.ts';
import { DAY, FindingsSeen, PropertyFailure, cap, planServes, requestFor } from './support.ts';
import type { Followable, Held } from './held.ts';

export const pagedOperations = dataOperations.filter((op) => op.query.includes('cursor'));

/** The request of a page's next page: its path and query, and its `next_cursor` as `cursor`. */
const followPath = (page: Followable): string =>
  `${page.asked}${page.asked.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(page.cursor)}`;

const cutCursor = (path: string): string => path.replace(/cursor=[^&]{20,}/, (c) => `${c.slice(0, 17)}...`);

/**
 * Asks the next page of `page`: one call, judged by the model and the rules (a finding ends the
 * sequence); a refusal of the service's own cursor fails it too, model or not (a model without the
 * service's data has no next page of its own to ask). Gives what can be followed from there.
 */
async function follow(ctx: SuiteContext, page: Followable, shown: string): Promise<Followable | null> {
  const path = followPath(page);
  const seen = ctx.ledger.findings.length;
  const answer = await ctx.client.call(path, { rows: page.rows });
  if (ctx.ledger.findings.length > seen) throw new FindingsSeen(shown);
  // A 402 is the key's state or balance (a used-up quota, a page the balance cannot pay), not the cursor's.
  if (![200, 402, 429].includes(answer.status))
    throw new PropertyFailure(
      expectedGot(
        `GET ${cutCursor(path)}, the next page of GET ${page.asked} by its next_cursor`,
        `200, its next page (${sentenceOf('next-page', page.operationId)})`,
        answerShown(answer),
      ),
    );
  const next = (answer.body as { next_cursor?: unknown } | null)?.next_cursor;
  return answer.status === 200 && typeof next === 'string' ? { ...page, cursor: next } : null;
}

/** A sequence's command: the next page of a page an earlier call of the sequence got. */
export class NextPage implements fc.AsyncCommand<Held, SuiteContext> {
  private shown = 'the next page of an earlier answer';
  readonly n: number;
  constructor(n: number) {
    this.n = n;
  }

  check = (held: Held): boolean => held.cursors.length > 0;

  async run(held: Held, ctx: SuiteContext): Promise<void> {
    const page = held.cursors[this.n % held.cursors.length]!;
    this.shown = `GET ${page.asked}, then its next_cursor`;
    // One page a sequence may be longer than a hundred rows (the plan's cap): what its cost is priced at.
    if (page.rows > 100 && held.bigPages++ > 0)
      return void (this.shown = `${this.shown} (left out: a second long page)`);
    // A page followed once: its next page is held in its place, to go on from.
    const next = await follow(ctx, page, this.shown);
    held.cursors = [...held.cursors.filter((c) => c !== page), ...(next ? [{ ...page, cursor: next.cursor }] : [])];
  }

  toString = (): string => this.shown;
}

/**
 * The most rows a page the walk follows may serve: a hundred, or where every row is billed, the
 * least a call bills anyway (pay as you go's ten): the walk is priced at it before the run starts.
 */
const followRows = (ctx: SuiteContext): number => Math.min(cap(ctx), planRule(ctx).min_rows_per_call ?? 100);

/** The most rows a page asked with `path` serves: its limit, else the default page, within the plan's. */
const rowsOf = (ctx: SuiteContext, path: string): number => {
  const limit = Number(new URL(path, 'http://run.invalid').searchParams.get('limit') ?? 100);
  return Math.min(cap(ctx), Number.isInteger(limit) && limit > 0 ? limit : 100);
};

/**
 * A page of `op` the run got whose next page it has not asked, the model's own pages first, then
 * the fewest rows; never one the model did not see (read before it was built: it has no next page
 * to compare). `walked` when there is none left and the run asked the next page of one of the
 * model's own (judged against the model's next page then); null when it has none to follow.
 */
function pageOfRun(ctx: SuiteContext, op: OperationInfo): Followable | 'walked' | null {
  const held = ctx.client.answers.all();
  const asked = new Set(held.map(([path]) => new URL(path, 'http://run.invalid').searchParams.get('cursor')));
  const pages = held.flatMap(([path, { answer }]): Followable[] => {
    const url = new URL(path, 'http://run.invalid');
    const next = (answer.body as { next_cursor?: unknown } | null)?.next_cursor;
    if (answer.status !== 200 || typeof next !== 'string' || url.searchParams.has('cursor')) return [];
    if (operationFor('GET', url.pathname)?.operationId !== op.operationId) return [];
    return [{ operationId: op.operationId, asked: path, cursor: next, rows: rowsOf(ctx, path) }];
  });
  const rank = (p: Followable) => ['own', 'none'].indexOf(ctx.client.model?.follows?.(followPath(p)) ?? 'none');
  const open = pages.filter((p) => !asked.has(p.cursor) && p.rows <= followRows(ctx) && rank(p) >= 0);
  if (!open.length) return pages.some((p) => asked.has(p.cursor) && rank(p) === 0) ? 'walked' : null;
  const better = (p: Followable, best: Followable) =>
    rank(p) < rank(best) || (rank(p) === rank(best) && p.rows <= best.rows);
  return open.reduce((best, p) => (better(p, best) ? p : best));
}

/** The walk's command: a page the run got of `op` followed, else its first page asked with `limit=1` and followed. */
export class FollowRun implements fc.AsyncCommand<Held, SuiteContext> {
  private shown: string;
  readonly op: OperationInfo;
  constructor(op: OperationInfo) {
    this.op = op;
    this.shown = `the next page of a page of ${op.operationId}`;
  }

  check = (): boolean => true;

  async run(_held: Held, ctx: SuiteContext): Promise<void> {
    let page = pageOfRun(ctx, this.op);
    if (page === 'walked') return void (this.shown += ' (the run asked the next page of each it got)');
    if (page === null) {
      const first = requestFor(ctx, this.op, 0, 1, Date.parse(ctx.asOf) - 30 * DAY);
      if (first === null) return void (this.shown += ' (left out: no sample to ask it of)');
      const answer = await ctx.client.call(first, { rows: 1 });
      const next = (answer.body as { next_cursor?: unknown } | null)?.next_cursor;
      if (answer.status !== 200 || typeof next !== 'string')
        return void (this.shown = `GET ${first} (${answer.status}, no next page to follow)`);
      page = { operationId: this.op.operationId, asked: first, cursor: next, rows: 1 };
    }
    this.shown = `GET ${page.asked}, then its next_cursor`;
    await follow(ctx, page, this.shown);
  }

  toString = (): string => this.shown;
}

/** A case of the walk: its one command, said as a sequence says its commands. */
export class Walked implements Iterable<FollowRun> {
  readonly follow: FollowRun;
  constructor(follow: FollowRun) {
    this.follow = follow;
  }

  *[Symbol.iterator](): Iterator<FollowRun> {
    yield this.follow;
  }

  toString = (): string => String(this.follow);
}

/** The walk's cases: a paged operation each that the key's plan serves. */
export const walkCases = (ctx: SuiteContext): Walked[] =>
  pagedOperations.filter((op) => planServes(ctx, op)).map((op) => new Walked(new FollowRun(op)));

/** What a case of the walk spends at most: a first page of one row, and a next page of `followRows`. */
export const walkCost = (ctx: SuiteContext): Spending => ({
  calls: 2,
  rows: ctx.client.rowCost(1) + ctx.client.rowCost(followRows(ctx)),
});
