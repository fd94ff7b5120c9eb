/**
 * What the properties share: how a failure is said (a property's shape is core/property.ts, passed
 * on from here), and the helpers that build requests, walk lists and call the mock's control API.
 */
import { type Answer } from '../client/client.ts';
import { PropertyFailure } from '../core/property.ts';
import { dataOperations, fillPath, planRule, type SuiteContext } from '../core/context.ts';
import { cutBody } from '../shown/cut-body.ts';
import { answerShown, expectedGot, hideKey, valueShown } from '../shown/failure-text.ts';

export { FindingsSeen, PropertyFailure, type Property } from '../core/property.ts';

export const DAY = 86_400_000;

/**
 * Why a check that does not depend on the run's key (the address's admission, the description, the
 * trial call, keys the control API makes) does not run with this key: it runs once a run, with the
 * run's last key (cli.ts), or null when this suite runs it.
 */
export const keylessElsewhere = (ctx: SuiteContext): string | null =>
  ctx.config.keylessChecks === false ? 'it does not depend on the key: run once a run, with the last key given' : null;

/**
 * Fails the case unless `condition` holds, saying where, what the rule expects and what the
 * service did instead (failure-text.ts): every property's failure is built here.
 */
export function assert(condition: unknown, where: string, expected: string, got: string): asserts condition {
  if (!condition) throw new PropertyFailure(expectedGot(where, expected, got));
}

/** The answer's status is `status` (or one of them); else its status and body, cut. */
export function expectStatus(answer: Answer, status: number | readonly number[], what: string): void {
  const statuses = typeof status === 'number' ? [status] : status;
  assert(statuses.includes(answer.status), what, statuses.join(' or '), answerShown(answer));
}

/** A problem's code as a failure shows it (`code "x"`, or `no code`). */
export const codeShown = (body: { code?: unknown } | null | undefined): string =>
  body?.code === undefined ? 'no code' : `code ${valueShown(body.code)}`;

export function expectActions(answer: Answer, what: string, type?: string): void {
  const actions = answer.body?.actions;
  assert(
    Array.isArray(actions) && actions.length > 0,
    what,
    `a ${answer.status} with a non-empty actions array`,
    actions === undefined ? 'no actions' : `actions ${valueShown(actions)}`,
  );
  if (type)
    assert(
      actions.some((a: { type?: string }) => a?.type === type),
      what,
      `actions with ${type}`,
      `actions ${JSON.stringify(actions.map((a: { type?: string }) => a?.type))}`,
    );
}

export const cap = (ctx: SuiteContext): number => planRule(ctx).rows_per_page;
/** Whether the key's plan has the feature an operation needs (the changes feed, the nightly dumps). */
export const planServes = (ctx: SuiteContext, op: { path: string; operationId: string }): boolean =>
  (planRule(ctx).exports || !op.path.includes('exports')) &&
  (planRule(ctx).changes_feed || op.operationId !== 'listChanges');
/**
 * The page a walk asks for: `wanted` rows, at most the plan's page size, and at most 100 where
 * every row is billed (pay as you go): a walk is planned at its pages' full size (plan.ts), and a
 * short page there costs the minimum a call, not the rows a long one might bring.
 */
export const pageOf = (ctx: SuiteContext, wanted: number): number =>
  Math.min(cap(ctx), planRule(ctx).min_rows_per_call ? Math.min(wanted, 100) : wanted);
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const isoSecond = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * A walk of at most `pages` pages; returns the rows and whether it reached the end. Its pages are
 * read (answers.ts): a page the run already holds, by its URL and cursor, is not asked again, so a
 * walk one property made is the walk the next one reads.
 */
export async function walk(
  ctx: SuiteContext,
  path: string,
  limit: number,
  pages: number,
): Promise<{ rows: any[]; ended: boolean; answers: Answer[] }> {
  const rows: any[] = [];
  const answers: Answer[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < pages; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await ctx.client.read(
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { rows: limit },
    );
    expectStatus(answer, 200, `page ${page + 1} of ${path}`);
    answers.push(answer);
    rows.push(...answer.body.data);
    cursor = answer.body.next_cursor;
    if (cursor === null) return { rows, ended: true, answers };
  }
  return { rows, ended: false, answers };
}

/**
 * Whether answers show the same data (one as_of): what is compared across them holds only then, a
 * rebuild between them changes it rightly.
 */
export const sameData = (...answers: (Answer | undefined | null)[]): boolean =>
  new Set(answers.filter(Boolean).map((a) => a!.body?.as_of)).size <= 1;

export { keyOf } from '../judges/judges.ts';

/**
 * A call of the kit's mock's control API (only with --use-control): JSON in, its answer out. A key
 * it makes is hidden from every later text at once, as the trial call's is (client.ts).
 */
export async function control(ctx: SuiteContext, path: string, method = 'GET', body?: unknown): Promise<Response> {
  const answer = await fetch(`${ctx.config.baseUrl}/__control${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const made = (await answer
    .clone()
    .json()
    .catch(() => null)) as { key?: unknown } | null;
  if (method === 'POST' && path === '/keys' && typeof made?.key === 'string') hideKey(made.key);
  // The model holds what the mock was told: the same keys, usage and clock (model/model.ts).
  if (answer.ok) await ctx.client.model?.mirrorControl(method, path, body, made);
  return answer;
}

/** A dump day's files, smallest first: the ones a case can afford to download. */
export const smallestFiles = (day: { files?: { bytes: number }[] } | undefined): any[] =>
  [...(day?.files ?? [])].sort((x, y) => x.bytes - y.bytes);

export const identity = (row: any): string =>
  typeof row?.service_url === 'string' ? row.service_url : JSON.stringify(row);
/** A row's identity as a failure shows it: a row without service_url is its whole JSON, cut (cut-body.ts). */
export const identityShown = (row: any): string => cutBody(identity(row), 200);

/** Rows with updated_at taken out, to compare content. */
export const content = (row: any): string => JSON.stringify({ ...row, updated_at: undefined });

export function requestFor(
  ctx: SuiteContext,
  op: (typeof dataOperations)[number],
  pick: number,
  limit: number | null,
  since: number,
): string | null {
  const path = fillPath(op.path, ctx.samples, pick);
  if (!path) return null;
  const query = new URLSearchParams();
  if (limit !== null && op.query.includes('limit')) query.set('limit', String(limit));
  if (op.query.includes('since')) query.set('since', isoSecond(since));
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

/**
 * Operations any key can read twice alike: not the account (its usage moves), the feed or the
 * dumps (plan features).
 */
export const readOperations = dataOperations.filter(
  (o) => o.operationId !== 'getAccount' && o.operationId !== 'listChanges' && !o.path.includes('exports'),
);

/** The plan features a key may or may not have (the plan table's changes_feed and exports). */
export const features = ['changes', 'exports'] as const;

/**
 * A burst sent all at once, and again (twice more at most, while the budget has room) when none of
 * it met a 429: a host too busy to take the first in before the limit refilled (a loaded CI
 * machine) meets the limit on the next, as a client pressing on would. The last wave's answers.
 */
export async function burstUntilLimited(ctx: SuiteContext, size: number, send: () => Promise<Answer[]>) {
  let answers = await send();
  for (let wave = 1; wave < 3 && !answers.some((a) => a.status === 429); wave++) {
    if (ctx.client.remaining.calls < size) break;
    answers = await send();
  }
  return answers;
}
