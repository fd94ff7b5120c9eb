/**
 * Every operation of the contract that reads data, at one scale: its first call on a freshly started
 * mock (each timed alone, one after another), then its p50 and p99 under a mixed load cycling
 * through all of them (issue #39).
 */
import { Agent, get } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { statisticNames } from '@investor-graph/mock';
import { type Load, connections, loadOf } from './setup.ts';

/** One operation as the scale section asks for it: a name for the tables, the path, and the key it is asked with. */
export interface Operation {
  name: string;
  path: string;
  key: 'enterprise' | 'trial';
}

/** Rows of the dataset the records and nested lists are asked for, read from its database. */
export interface Picked {
  /** The firm and company of the edge nine tenths down the investments (a busy parent is the likelier pick). */
  firm: string;
  company: string;
  fund: string;
  list: string;
  /** The edge nine tenths down the investments, where the deep page starts. */
  deepKey: string;
  asOf: string;
}

/** An operation's first call: its time from sending to the last byte, in ms to the microsecond, and its status. */
export interface FirstCall {
  ms: number;
  status: number;
}

/** An operation's answers under the mixed load: latencies in ms to the microsecond (autocannon's own, per answer). */
export interface LoadedOperation {
  requests: number;
  non2xx: number;
  p50: number;
  p99: number;
  max: number;
}

const at = (db: DatabaseSync, sql: string, fraction: number, count: number) =>
  db.prepare(`${sql} LIMIT 1 OFFSET ?`).get(Math.floor(count * fraction)) as Record<string, string>;

/** The rows picked from the dataset's database (the file the mock opens), by position in key order. */
export function pickRows(db: DatabaseSync, rows: Record<string, number>, asOf: string): Picked {
  const edge = at(db, 'SELECT key, firm_slug, company_slug FROM investment ORDER BY key', 0.9, rows.investment!);
  return {
    firm: edge.firm_slug!,
    company: edge.company_slug!,
    deepKey: edge.key!,
    asOf,
    fund: at(db, 'SELECT key FROM fund ORDER BY key', 0.9, rows.fund!).key!,
    list: at(db, 'SELECT key FROM list ORDER BY key', 0.5, rows.list!).key!,
  };
}

/**
 * The operations in the order of their first calls: the account first (it reads none of the dataset,
 * and pays for the first keyed call's set-up in the mock, which would otherwise fall on the next),
 * then the statistics, before anything else has read the rounds, each on the Enterprise key and again
 * on a trial key, whose round lag makes a rollup of its own. `deepCursor` is the page after the
 * picked edge. A date past every round: the day after the data's as-of (no round is announced later).
 */
export function scaleOperations(p: Picked, deepCursor: string): Operation[] {
  const asOfDay = new Date(p.asOf);
  const dayAfter = new Date(asOfDay.getTime() + 86_400_000).toISOString().slice(0, 10);
  const month = `${p.asOf.slice(0, 8)}01T00:00:00Z`;
  const op = (name: string, path: string, key: Operation['key'] = 'enterprise'): Operation => ({
    name,
    path: `/api/v1${path}`,
    key,
  });
  return [
    op('/account', '/account'),
    ...statisticNames.map((s) => op(`/statistics/${s}`, `/statistics/${s}`)),
    ...statisticNames.map((s) => op(`/statistics/${s}, trial key`, `/statistics/${s}`, 'trial')),
    op('/firms', '/firms?limit=100'),
    op('/firms/{slug}', `/firms/${p.firm}`),
    op('/firms/{slug}/portfolio', `/firms/${p.firm}/portfolio?limit=100`),
    op('/firms/{slug}/filings', `/firms/${p.firm}/filings?limit=100`),
    op('/firms/{slug}/funds', `/firms/${p.firm}/funds?limit=100`),
    op('/companies', '/companies?limit=100'),
    op('/companies/{slug}', `/companies/${p.company}`),
    op('/companies/{slug}/rounds', `/companies/${p.company}/rounds?limit=100`),
    op('/companies/{slug}/investors', `/companies/${p.company}/investors?limit=100`),
    op('/companies/{slug}/offerings', `/companies/${p.company}/offerings?limit=100`),
    op('/rounds', '/rounds?limit=100'),
    op('/rounds?announced_since= past every round', `/rounds?limit=100&announced_since=${dayAfter}`),
    op('/rounds?announced_since=2024-01-01', '/rounds?limit=100&announced_since=2024-01-01'),
    op('/investments', '/investments?limit=100'),
    op('/investments, nine tenths deep', `/investments?limit=100&cursor=${encodeURIComponent(deepCursor)}`),
    op('/funds', '/funds?limit=100'),
    op('/funds/{id}', `/funds/${p.fund}`),
    op('/filings', '/filings?limit=100'),
    op('/offerings', '/offerings?limit=100'),
    op('/adv-funds', '/adv-funds?limit=100'),
    op('/lists', '/lists?limit=100'),
    op('/lists/{slug}', `/lists/${p.list}`),
    op('/changes', `/changes?since=${month}&limit=100`),
    // Last: its first call writes the day's dump (minutes at ten million rows), which nothing else waits for here.
    op('/exports', '/exports'),
  ];
}

/** A GET on one kept-alive connection, timed from sending to the last byte of the body. */
function timedGet(agent: Agent, url: string, headers: Record<string, string>): Promise<FirstCall & { body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          ms: Math.round((performance.now() - started) * 1000) / 1000,
          status: response.statusCode!,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Each operation's first call, one after another, on a mock that has answered nothing yet but the
 * contract document (which opens the connection and reads no data). The statistics' bodies are kept
 * for the comparison with the rollups from the rows.
 */
export async function firstCalls(
  url: string,
  operations: Operation[],
  keys: { enterprise: string; trial: string },
): Promise<{ calls: Record<string, FirstCall>; bodies: Record<string, string> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = (key: Operation['key']) => ({ authorization: `Bearer ${keys[key]}`, 'accept-encoding': 'identity' });
  const calls: Record<string, FirstCall> = {};
  const bodies: Record<string, string> = {};
  try {
    await timedGet(agent, `${url}/api/v1/openapi.json`, { 'accept-encoding': 'identity' });
    for (const o of operations) {
      const { ms, status, body } = await timedGet(agent, `${url}${o.path}`, headers(o.key));
      calls[o.name] = { ms, status };
      if (o.path.startsWith('/api/v1/statistics/')) bodies[o.name] = body;
    }
  } finally {
    agent.destroy();
  }
  return { calls, bodies };
}

/** The nearest-rank percentile of sorted latencies, in ms to the microsecond. */
const percentile = (sorted: number[], p: number): number =>
  Math.round((sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0) * 1000) / 1000;

/**
 * `perOperation` rounds of every operation under autocannon's connections, each connection starting
 * at its own place in the cycle (so they do not ask for the same thing at once). Trial requests take
 * the trial keys in turn, so that no key's quota (1,000 calls) runs out. Each answer is put down to
 * its operation through the request's onResponse, which autocannon calls just before the client's
 * 'response' event for the same answer, with the answer's latency.
 */
export async function operationLoad(
  url: string,
  operations: Operation[],
  keys: { enterprise: string; trials: string[] },
  perOperation: number,
): Promise<{ mixed: Load & { requests: number }; operations: Record<string, LoadedOperation> }> {
  const latencies = new Map(operations.map((o) => [o.name, [] as number[]]));
  const non2xx = new Map(operations.map((o) => [o.name, 0]));
  let answered = '';
  let trialTurn = 0;
  const requests = operations.map((o): autocannon.Request => ({
    method: 'GET',
    path: o.path,
    headers: { authorization: `Bearer ${keys.enterprise}` },
    onResponse: () => void (answered = o.name),
    ...(o.key === 'trial'
      ? {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            headers: { authorization: `Bearer ${keys.trials[trialTurn++ % keys.trials.length]}` },
          }),
        }
      : {}),
  }));
  let clients = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        amount: perOperation * operations.length,
        timeout: 600,
        requests,
        setupClient: (client) => {
          const shift = Math.floor((clients++ * operations.length) / connections) % operations.length;
          // Each client its own copies: autocannon keeps a request's built bytes on the object.
          client.setRequests(
            [...requests.slice(shift), ...requests.slice(0, shift)].map((r) => ({ ...r, headers: { ...r.headers } })),
          );
        },
      },
      (error: Error | null, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.get(answered)?.push(ms);
      if (status < 200 || status > 299) non2xx.set(answered, non2xx.get(answered)! + 1);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    mixed: { ...loadOf(result, result.requests.total / seconds), requests: result.requests.total },
    operations: Object.fromEntries(
      operations.map((o) => {
        const sorted = latencies.get(o.name)!.sort((a, b) => a - b);
        return [
          o.name,
          {
            requests: sorted.length,
            non2xx: non2xx.get(o.name)!,
            p50: percentile(sorted, 0.5),
            p99: percentile(sorted, 0.99),
            max: percentile(sorted, 1),
          },
        ];
      }),
    ),
  };
}
