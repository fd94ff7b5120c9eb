/**
 * The validation proxy's resident memory in front of an upstream that hands out a new cursor on
 * every page (issue #51): the proxy CLI as a process of its own, a loopback upstream answering pages
 * of ~3 MB of firm-shaped rows, each row new, and a client walking them. Prints the proxy's RSS
 * and heap (and its children's RSS: the process that checks large answers) before, every 10 pages,
 * after, and after 35 s idle; a measurement, not a test.
 *
 *   node packages/bench/src/proxy-memory.ts [pages=100] [mb=3] [follow|fresh] [url|bare]
 *
 * `follow`: the client follows next_cursor (one walk of every page); `fresh`: every request starts
 * a walk of its own (no cursor), so the proxy keeps one walk per page. `url`: rows carry their
 * service_url, as the contract has them; `bare`: rows without one (a broken service), which the
 * walk's rule tells apart by their whole text. "heap" is V8's heap in use after a full collection.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssOf, startProcess } from './processes.ts';

const pages = Number(process.argv[2] ?? 100);
const mb = Number(process.argv[3] ?? 3);
const mode = process.argv[4] === 'fresh' ? 'fresh' : 'follow';
const bare = process.argv[5] === 'bare';
const rowBytes = 560;
const rowsPerPage = Math.round((mb * 1024 * 1024) / rowBytes);

let served = 0;
/** A page of rows no earlier page held, and a cursor no earlier page handed out. */
function page(): string {
  const n = served++;
  const rows = Array.from({ length: rowsPerPage }, (_, i) => {
    const slug = `firm-${n}-${i}`;
    return (
      `{"slug":"${slug}","name":"Firm ${n} ${i}","kind":"venture_capital","hq_city":"Singapore","hq_country":"SG",` +
      `"website":"https://${slug}.example","founded_year":2002,"aum_usd":null,"stages":["seed","series_a"],` +
      `"sectors":["fintech","climate"],"sec_cik":null,"crd_number":null,"portfolio_count":18,` +
      `${bare ? '' : `"service_url":"https://investorgraph.example/firms/${slug}",`}` +
      `"updated_at":"2025-10-17T03:00:00Z","first_seen_at":"2005-01-01T03:00:00Z"}`
    );
  });
  const plan =
    '{"id":"enterprise","name":"Enterprise","rows_per_page":1000,"rate_per_second":50,"round_lag_days":0,' +
    '"changes_feed":true,"exports":true}';
  const usage =
    '{"period_start":"2026-11-01T00:00:00Z","period_end":"2026-12-01T00:00:00Z","calls_used":1,' +
    '"calls_limit":5000000,"calls_remaining":4999999,"rows_charged":0,"balance_rows":null}';
  return (
    `{"data":[${rows.join(',')}],"next_cursor":"cur${n}x${Math.random().toString(36).slice(2)}",` +
    `"as_of":"2026-11-20T03:00:00Z","plan":${plan},"usage":${usage}}`
  );
}

const upstream = createServer((_req, res) => {
  const body = page();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

const dir = mkdtempSync(join(tmpdir(), 'ig-proxy-memory-'));
const cli = fileURLToPath(new URL('../../mock/src/cli/main.ts', import.meta.url));
// On SIGUSR2 the proxy prints its heap after a full collection: what it keeps, apart from
// what V8 has not yet given back.
const heapOnSignal =
  `process.on('SIGUSR2', () => { globalThis.gc(); process.stdout.write('HEAP ' + ` +
  `process.memoryUsage().heapUsed + '\\n'); });`;
const preload = `data:text/javascript,${encodeURIComponent(heapOnSignal)}`;
const proxy = await startProcess(
  process.execPath,
  [
    '--expose-gc',
    '--import',
    preload,
    cli,
    'proxy',
    upstreamUrl,
    '--port',
    '0',
    '--quiet',
    '--report',
    join(dir, 'r.json'),
    '--junit',
    join(dir, 'j.xml'),
  ],
  /proxy on (http:\/\/[^ ]+) ->/,
);
const key = `igk_enterprise_${'a'.repeat(32)}`;
/** Asks the proxy for its heap after a full collection, in MB. */
function heapMb(): Promise<number> {
  return new Promise((resolve) => {
    let said = '';
    const listen = (data: Buffer): void => {
      said += data.toString();
      const m = /HEAP (\d+)\n/.exec(said);
      if (!m) return;
      proxy.child.stdout!.off('data', listen);
      resolve(Math.round(Number(m[1]) / 1024 / 1024));
    };
    proxy.child.stdout!.on('data', listen);
    proxy.child.kill('SIGUSR2');
  });
}
/** The RSS of the proxy's children (its checks' process, where it has one), MB. */
function childrenRssMb(): number {
  const pid = proxy.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return children.reduce((sum, child) => sum + (rssOf(Number(child)) || 0), 0);
}
const line = async (label: string): Promise<void> =>
  console.log(
    `${label.padEnd(22)} RSS ${proxy.rssMb()} MB (peak ${proxy.peakRssMb()} MB), heap ${await heapMb()} ` +
      `MB; its children's RSS ${childrenRssMb()} MB`,
  );

console.log(
  `${pages} pages of ${rowsPerPage} ${bare ? 'rows without service_url' : 'rows'} (~${mb} MB), ` +
    `${mode === 'follow' ? 'one walk followed by cursor' : 'a walk of its own each'}`,
);
await line('before');
let cursor: string | null = null;
for (let i = 1; i <= pages; i++) {
  const query: string = mode === 'follow' && cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
  const response = await fetch(`${proxy.url}/api/v1/firms?limit=1000${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await response.json()) as { next_cursor: string | null };
  cursor = body.next_cursor;
  if (i % 10 === 0) await line(`after ${i} pages`);
}
// Past the 30 s after which the proxy stops its idle checks' worker, giving back that thread's heap.
await new Promise((r) => setTimeout(r, 35_000));
await line('after 35 s idle');
await proxy.stop();
const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
  exchanges: number;
  by_rule: Record<string, number>;
};
console.log(`report: ${report.exchanges} exchanges, by rule ${JSON.stringify(report.by_rule)}`);
upstream.close();
rmSync(dir, { recursive: true, force: true });
