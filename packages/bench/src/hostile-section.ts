/**
 * Hostile patterns over a full journal (issue #66): a mock whose journal holds 12,000 calls with
 * paths of 6 KB, asked to verify a pattern of sixteen stars that nearly matches every path (each
 * `*` was `.*` in a regular expression: it did not answer in 15 s), beside the peer, a pattern of
 * no star; and a call of another key made while each verification runs, beside the same call alone.
 * The kinds take turns, round after round; each figure is the median of the rounds with the spread.
 */
import { measuredLine, replaceBlock, targetLines } from './markdown.ts';
import { spread, type Spread } from './state.ts';
import { auth, log, measuredOn, ratio, rounds, smoke, startMock, writeResults } from './setup.ts';
import { logTargets } from './throughput-section.ts';

export interface HostileFigures {
  journal_entries: number;
  path_bytes: number;
  /** A verification's whole call, ms. */
  verify_ms: { hostile: Spread; plain: Spread };
  /** Another key's GET of one firm, ms: while a hostile verification runs, and alone. */
  other_key_ms: { beside_hostile: Spread; alone: Spread };
  ratios: { hostile_vs_plain: number; beside_vs_alone: number };
}

const hostilePattern = `*${'a*'.repeat(15)}b`;

async function timed(work: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await work();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the bench's call answered ${response.status}`);
  return performance.now() - started;
}

export async function hostileSection(): Promise<HostileFigures> {
  const entries = smoke ? 500 : 12_000;
  const mock = await startMock(['--journal', String(entries)]);
  const path = `/api/v1/firms/${'a'.repeat(6000)}`;
  log(`hostile: ${entries.toLocaleString('en')} calls of ${path.length.toLocaleString('en')}-byte paths journaled`);
  for (let sent = 0; sent < entries; sent += 50)
    await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${mock.url}${path}`, { headers: auth }).then((r) => r.arrayBuffer())),
    );
  const verify = (pattern: string) => () =>
    fetch(`${mock.url}/__control/journal/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: { path: pattern }, count: 0 }),
    });
  const otherKey = () => fetch(`${mock.url}/api/v1/firms?limit=1`, { headers: auth });
  const runs = { hostile: [] as number[], plain: [] as number[], beside: [] as number[], alone: [] as number[] };
  for (let round = 0; round < Math.max(rounds, 5); round++) {
    runs.plain.push(await timed(verify('/api/v1/firms/harbor-lane-capital')));
    const [hostile, beside] = await Promise.all([timed(verify(hostilePattern)), timed(otherKey)]);
    runs.hostile.push(hostile);
    runs.beside.push(beside);
    runs.alone.push(await timed(otherKey));
  }
  await mock.stop();
  const ms = (values: number[]) => spread(values.map((v) => Math.round(v * 10) / 10));
  const figures = {
    journal_entries: entries,
    path_bytes: path.length,
    verify_ms: { hostile: ms(runs.hostile), plain: ms(runs.plain) },
    other_key_ms: { beside_hostile: ms(runs.beside), alone: ms(runs.alone) },
  };
  return {
    ...figures,
    ratios: {
      hostile_vs_plain: ratio(figures.verify_ms.hostile.median, figures.verify_ms.plain.median),
      beside_vs_alone: ratio(figures.other_key_ms.beside_hostile.median, figures.other_key_ms.alone.median),
    },
  };
}

/** The bounds: a hostile verification under 50 ms, another key answered under 100 ms beside it. */
export const hostileTargets = (f: HostileFigures): Record<string, boolean> => ({
  'a hostile pattern over the full journal answered in under 50 ms (median)': f.verify_ms.hostile.median < 50,
  'another key answered in under 100 ms while it runs (median)': f.other_key_ms.beside_hostile.median < 100,
});

export function hostileLine(f: HostileFigures): string {
  const range = (s: Spread) => `${s.median} ms (${s.low}-${s.high})`;
  return (
    `verify over ${f.journal_entries.toLocaleString('en')} entries of ${f.path_bytes.toLocaleString('en')} bytes: ` +
    `sixteen stars ${range(f.verify_ms.hostile)}, no star ${range(f.verify_ms.plain)} ` +
    `(${f.ratios.hostile_vs_plain}x); another key's call beside it ${range(f.other_key_ms.beside_hostile)}, ` +
    `alone ${range(f.other_key_ms.alone)} (${f.ratios.beside_vs_alone}x)`
  );
}

export function refreshHostile(r: { figures: HostileFigures; targets: Record<string, boolean> } & object): void {
  replaceBlock(
    'hostile',
    `${measuredLine({ ...r, settings: { client: 'fetch', connections: 1 } }).replace(/ Client: .*$/, '')}

${hostileLine(r.figures)}.

${targetLines(r.targets)}`,
  );
}

/** `--only hostile`: measures, writes the figures, and refreshes its block of BENCHMARKS.md (not on --smoke). */
export async function hostileAlone(): Promise<void> {
  const figures = await hostileSection();
  const targets = hostileTargets(figures);
  const results = { ...measuredOn(), figures, targets };
  writeResults(results);
  log(hostileLine(figures));
  logTargets(targets);
  if (!smoke) refreshHostile(results);
}
