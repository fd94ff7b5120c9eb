/**
 * A record agrees with the lists it is computed from, for what each plan may see: a company's
 * total raised and last round with its rounds, a firm's portfolio count with its portfolio, before
 * and after a fortnight of rebuilds, on both stores; a trial's round lag holds back rounds inside it
 * and their edges, and every derived field is computed without them (DECISIONS.md#round-lag).
 */
import { describe, expect, test } from 'vitest';
import { createContractValidator, plans, type PlanId } from '@investor-graph/contract';
import { SqliteStore } from './sqlite/dataset-store.ts';
import { loadInput } from '../cli/start-mock.ts';
import { createEngine, type Engine } from '@investor-graph/engine/adapter';
import { MemoryStore } from '@investor-graph/engine/adapter';
import type { Store } from '@investor-graph/engine/adapter';

const [input, validator] = await Promise.all([loadInput({}), createContractValidator()]);
const DAY = 86_400_000;
type Row = Record<string, any>;

async function walk(engine: Engine, key: string, path: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const url =
      `http://localhost${path}${path.includes('?') ? '&' : '?'}limit=` +
      `${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await engine.fetch(new Request(url, { headers: { authorization: `Bearer ${key}` } }));
    expect(answer.status, url).toBe(200);
    const body = (await answer.json()) as { data: Row[]; next_cursor: string | null };
    rows.push(...body.data);
    cursor = body.next_cursor;
  }
  return rows;
}

/** Everything a key sees of companies, rounds, firms and edges, walked whole. */
async function seen(engine: Engine, plan: PlanId) {
  const { key } = await engine.accounts.create(plan, engine.clock.now());
  const page = plans[plan].rows_per_page;
  const [companies, rounds, firms, edges] = await Promise.all(
    ['/api/v1/companies', '/api/v1/rounds', '/api/v1/firms', '/api/v1/investments'].map((path) =>
      walk(engine, key, path, page),
    ),
  );
  return { key, companies: companies!, rounds: rounds!, firms: firms!, edges: edges! };
}

/** Each company's and firm's derived fields against the rounds and edges the same key sees. */
function disagreements({ companies, rounds, firms, edges }: Awaited<ReturnType<typeof seen>>): string[] {
  const out: string[] = [];
  const byCompany = Map.groupBy(rounds, (r) => r.company_slug as string);
  for (const company of companies) {
    const theirs = byCompany.get(company.slug) ?? [];
    const total = theirs.reduce((sum, r) => sum + (r.amount_usd ?? 0), 0) || null;
    const latest = theirs.reduce<Row | null>((a, r) => (!a || r.announced_on > a.announced_on ? r : a), null);
    if (company.total_raised_usd !== total)
      out.push(`${company.slug}: total_raised_usd ${company.total_raised_usd}, its rounds sum to ${total}`);
    if ((company.last_round?.id ?? null) !== (latest?.id ?? null))
      out.push(`${company.slug}: last_round ${company.last_round?.id}, its latest round ${latest?.id}`);
  }
  const reached = Map.groupBy(edges, (e) => e.firm_slug as string);
  for (const firm of firms) {
    const count = new Set((reached.get(firm.slug) ?? []).map((e) => e.company_slug)).size;
    if (firm.portfolio_count !== count)
      out.push(`${firm.slug}: portfolio_count ${firm.portfolio_count}, its edges reach ${count}`);
  }
  const ids = new Set(rounds.map((r) => r.id));
  for (const edge of edges)
    if (!ids.has(edge.round_id)) out.push(`${edge.id}: an edge of round ${edge.round_id}, which the key does not see`);
  return out;
}

const stores: [string, () => Store][] = [
  ['MemoryStore', () => new MemoryStore(structuredClone(input))],
  ['SqliteStore', () => SqliteStore.fromInput(structuredClone(input))],
];

describe.each(stores)('%s', (_name, open) => {
  for (const [when, days] of [
    ["at the dataset's as-of", 0],
    ['after a fortnight of rebuilds', 14],
  ] as const) {
    test(
      `${when}, every key sees companies and firms that agree with ` +
        `the rounds and edges it sees; a trial sees none inside its lag`,
      async () => {
        const engine = createEngine({
          dataset: open(),
          validator,
          rateLimit: false,
          frozen: true,
          now: Date.parse(input.asOf) + days * DAY,
        });
        await engine.ready;
        const paid = await seen(engine, 'enterprise');
        const trial = await seen(engine, 'trial');
        expect(disagreements(paid)).toEqual([]);
        expect(disagreements(trial)).toEqual([]);
        const cutoff = new Date(engine.store.asOf - plans.trial.round_lag_days * DAY).toISOString().slice(0, 10);
        const held = paid.rounds.filter((r) => r.announced_on > cutoff);
        expect(held.length).toBeGreaterThan(0);
        expect(trial.rounds.filter((r) => r.announced_on > cutoff)).toEqual([]);
        // What the lag holds back changes what a trial sees of those companies and firms.
        const differ = (a: Row[], b: Row[], field: string) =>
          a.filter(
            (row) => JSON.stringify(row[field]) !== JSON.stringify(b.find((other) => other.slug === row.slug)?.[field]),
          ).length;
        expect(differ(trial.companies, paid.companies, 'total_raised_usd')).toBeGreaterThan(0);
        expect(differ(trial.firms, paid.firms, 'portfolio_count')).toBeGreaterThan(0);
        // Nested lists hold back the same edges: a company's investors, a firm's portfolio.
        const company = held[0]!.company_slug as string;
        const investors = await walk(engine, trial.key, `/api/v1/companies/${company}/investors`, 100);
        expect(investors.filter((e) => held.some((r) => r.id === e.round_id))).toEqual([]);
        const edge = paid.edges.find((e) => held.some((r) => r.id === e.round_id))!;
        const portfolio = await walk(engine, trial.key, `/api/v1/firms/${edge.firm_slug}/portfolio`, 100);
        expect(portfolio.some((e) => e.id === edge.id)).toBe(false);
        expect(new Set(portfolio.map((e) => e.company_slug)).size).toBe(
          trial.firms.find((f) => f.slug === edge.firm_slug)!.portfolio_count,
        );
        const record = await engine.fetch(
          new Request(`http://localhost/api/v1/companies/${company}`, {
            headers: { authorization: `Bearer ${trial.key}` },
          }),
        );
        expect(((await record.json()) as { data: Row }).data).toEqual(trial.companies.find((c) => c.slug === company));
      },
      60_000,
    );
  }
});
