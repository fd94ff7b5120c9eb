/** The same requests to three servers (the mock, prism mock, a bare node:http server) in alternating rounds. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openapiDocument } from '@investor-graph/contract/document';
import { freePort } from '@investor-graph/cli';
import { startProcess, type Started } from './processes.ts';
import { spread, type Spread } from './state.ts';
import { type Load, auth, here, load, log, prismCli, ratio, rounds, running, temp } from './setup.ts';

/** Per server and request: the runs' req/s as a spread, and the medians of the rest. */
export interface Throughput {
  rps: Spread;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytes: number;
  /** The server's CPU a call, µs: the median of the runs (null where it could not be read). */
  cpuUs: number | null;
}

export const servers = ['mock', 'prism', 'bare'] as const;
export const requestNames = ['record', 'page', 'error'] as const;
export type Figures = Record<(typeof servers)[number], Record<(typeof requestNames)[number], Throughput>>;

/**
 * The mock beside prism and a bare node:http server on the same three requests, sending the same
 * bytes: `rounds` rounds, each running every request on every server in turn, so a slow spell of
 * the machine falls on all three alike; each figure is the median of its runs with the spread.
 */
export async function throughputSection(
  mock: Started,
): Promise<{ bytes: Record<string, number>; throughput: Figures }> {
  const slug = (
    (await (await fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: auth })).json()) as { data: { slug: string }[] }
  ).data[0]!.slug;
  const requests = {
    record: { path: `/api/v1/firms/${slug}`, headers: auth, template: '/api/v1/firms/{slug}' },
    page: { path: '/api/v1/companies?limit=100', headers: auth, template: '/api/v1/companies' },
    error: {
      path: '/api/v1/companies?limit=100',
      headers: {} as Record<string, string>,
      template: '/api/v1/companies',
    },
  };
  // The bare server answers with the mock's own bytes, status and content type.
  const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  const bytes: Record<string, number> = {};
  for (const [name, r] of Object.entries(requests)) {
    // As autocannon asks, with no Accept-Encoding of fetch's own: the bytes as they go uncompressed.
    const response = await fetch(`${mock.url}${r.path}`, { headers: { ...r.headers, 'accept-encoding': 'identity' } });
    const body = Buffer.from(await response.arrayBuffer());
    bytes[name] = body.length;
    // The error path has no key, so it is told apart by path in the bare server.
    // Every header the mock sent but those Node's own server writes (Date, Connection, Keep-Alive, the length).
    const sent = Object.fromEntries(
      [...response.headers].filter(
        ([h]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(h),
      ),
    );
    answers[name === 'error' ? `${r.path}&bare-error` : r.path] = {
      status: response.status,
      headers: sent,
      body: body.toString('base64'),
    };
  }
  writeFileSync(join(temp, 'answers.json'), JSON.stringify(answers));
  // Prism answers from the contract's examples, one row where the mock sends a hundred. Given the
  // mock's own bodies as those examples, every server sends the same bytes, and the comparison is
  // of servers, not of answer sizes.
  const contract = structuredClone(openapiDocument) as any;
  const deref = (node: any): any =>
    node?.$ref
      ? deref(
          node.$ref
            .slice(2)
            .split('/')
            .reduce((o: any, k: string) => o[k], contract),
        )
      : node;
  for (const [name, r] of Object.entries(requests)) {
    const response = await fetch(`${mock.url}${r.path}`, { headers: r.headers });
    const documented = deref(contract.paths[r.template].get.responses[String(response.status)]);
    const media = documented.content[response.headers.get('content-type')!.split(';')[0]!];
    media.examples = {
      default: {
        value: JSON.parse(
          Buffer.from(answers[name === 'error' ? `${r.path}&bare-error` : r.path]!.body, 'base64').toString('utf8'),
        ),
      },
    };
  }
  writeFileSync(join(temp, 'openapi-bench.json'), JSON.stringify(contract));
  const bare = await startProcess(
    process.execPath,
    [join(here, 'bare-server.ts'), join(temp, 'answers.json')],
    /bare server on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  running.push(bare);
  const prismPort = await freePort();
  const prism = await startProcess(
    process.execPath,
    [prismCli, 'mock', join(temp, 'openapi-bench.json'), '-h', '127.0.0.1', '-p', String(prismPort)],
    /Prism is listening/,
    { url: `http://127.0.0.1:${prismPort}` },
  );
  running.push(prism);

  const started = { mock, prism, bare };
  const runs = Object.fromEntries(
    servers.map((t) => [t, Object.fromEntries(requestNames.map((n) => [n, [] as Load[]]))]),
  ) as Record<(typeof servers)[number], Record<(typeof requestNames)[number], Load[]>>;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const name of requestNames) {
        const r = requests[name];
        for (const target of servers) {
          const path = target === 'bare' && name === 'error' ? `${r.path}&bare-error` : r.path;
          const t = await load(`${started[target].url}${path}`, r.headers, round > 0, started[target].cpuMs);
          runs[target][name].push(t);
          log(
            `round ${round + 1}/${rounds} ${name.padEnd(7)} ${target.padEnd(6)} ` +
              `${String(t.rps).padStart(6)} req/s  p50 ${t.p50} ms  p99 ${t.p99} ms  CPU ${t.cpuUs ?? '?'} ` +
              `µs a call${t.errors ? `  ${t.errors} errors` : ''}`,
          );
        }
      }
    }
  } finally {
    await Promise.all([prism.stop(), bare.stop()]);
  }
  const median = (values: number[]) => spread(values).median;
  const figure = (list: Load[]): Throughput => ({
    rps: spread(list.map((l) => l.rps)),
    p50: median(list.map((l) => l.p50)),
    p99: median(list.map((l) => l.p99)),
    non2xx: list.reduce((n, l) => n + l.non2xx, 0),
    errors: list.reduce((n, l) => n + l.errors, 0),
    bytes: median(list.map((l) => l.bytes)),
    cpuUs: list.every((l) => Number.isFinite(l.cpuUs)) ? median(list.map((l) => l.cpuUs!)) : null,
  });
  const throughput = Object.fromEntries(
    servers.map((t) => [t, Object.fromEntries(requestNames.map((n) => [n, figure(runs[t][n])]))]),
  ) as Figures;
  return { bytes, throughput };
}

/** How many times a's median req/s is b's, with the lowest and highest of the rounds' own ratios. */
export function compare(a: Throughput, b: Throughput): { median: number; low: number; high: number } {
  const perRound = a.rps.runs.map((rps, i) => ratio(rps, b.rps.runs[i]!));
  return { median: ratio(a.rps.median, b.rps.median), low: Math.min(...perRound), high: Math.max(...perRound) };
}

/**
 * The throughput targets: at least 10x prism on the record and 8x on the page (issue #21); half of
 * bare node on the record and the page, a third on the error (issue #39).
 */
export function throughputTargets(t: Figures) {
  const ratios = {
    mock_vs_prism_rps: Object.fromEntries(requestNames.map((n) => [n, compare(t.mock[n], t.prism[n])])) as Record<
      (typeof requestNames)[number],
      ReturnType<typeof compare>
    >,
    mock_vs_bare_rps: Object.fromEntries(requestNames.map((n) => [n, compare(t.mock[n], t.bare[n])])) as Record<
      (typeof requestNames)[number],
      ReturnType<typeof compare>
    >,
  };
  const targets = {
    'mock >= 10x prism req/s on the record': ratios.mock_vs_prism_rps.record.median >= 10,
    'mock >= 8x prism req/s on the 100-row page': ratios.mock_vs_prism_rps.page.median >= 8,
    'mock >= 1/2 of bare node req/s on the record': ratios.mock_vs_bare_rps.record.median >= 1 / 2,
    'mock >= 1/2 of bare node req/s on the 100-row page': ratios.mock_vs_bare_rps.page.median >= 1 / 2,
    'mock >= 1/3 of bare node req/s on the error': ratios.mock_vs_bare_rps.error.median >= 1 / 3,
  };
  return { ratios, targets };
}

/** The mock's and bare node's CPU a call and how much of the mock's the bare server's is, or why not. */
export function cpuText(t: Figures, name: (typeof requestNames)[number]): string {
  const mock = t.mock[name].cpuUs,
    bare = t.bare[name].cpuUs;
  return mock === null || bare === null ? 'not read (no /proc)' : `${mock} / ${bare} µs (${ratio(bare, mock)}x)`;
}

export const ratioText = (r: { median: number; low: number; high: number }): string =>
  `${r.median}x (${r.low}-${r.high})`;

export function throughputLines(t: Figures, r: ReturnType<typeof throughputTargets>['ratios']): string[] {
  return [
    `mock vs prism (median req/s, rounds' range): ` +
      `${requestNames.map((n) => `${n} ${ratioText(r.mock_vs_prism_rps[n])}`).join(', ')}`,
    `mock vs bare node: ${requestNames.map((n) => `${n} ${ratioText(r.mock_vs_bare_rps[n])}`).join(', ')}`,
    ...requestNames.map(
      (n) =>
        `${n.padEnd(7)} ` +
        `${servers.map((s) => `${s} ${t[s][n].rps.median} (${t[s][n].rps.low}-${t[s][n].rps.high})`).join('  ')}`,
    ),
    `server CPU a call, µs (mock / bare, and bare's over the mock's): ` +
      `${requestNames.map((n) => `${n} ${cpuText(t, n)}`).join(', ')}`,
  ];
}

export function logTargets(targets: Record<string, boolean>): void {
  for (const [name, met] of Object.entries(targets)) log(`  ${met ? 'met    ' : 'NOT MET'} ${name}`);
}
