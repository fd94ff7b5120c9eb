/**
 * A nightly dump given as --data (issue #55), beside the generated dataset it was written from: at
 * each scale the mock's own dump of the generated dataset, downloaded through /exports as a Business
 * or Enterprise key downloads it (manifest.json and each file under <date>/<name>); the first start
 * on it, which reads it into the kit's cache, and three later ones, which open it from there, from
 * spawn to banner, with resident memory after start and the most at any moment; and three starts on
 * the generated dataset itself. The dump's database goes to the bench's temporary folder, removed
 * after the run; the generated one is the kit's cache's, as the scale section leaves it.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measuredLine, replaceBlock, targetLines } from './markdown.ts';
import { spread, type Spread } from './state.ts';
import { auth, log, scales, smoke, startMock, temp } from './setup.ts';

export interface DataFigures {
  scale: number;
  rows: number;
  /** The dump's gzip files together. */
  dump_mb: number;
  generated: {
    start_ms: Spread;
    rss_start_mb: number;
    rss_peak_mb: number;
    /** Its database's build, when this run built it (the first start at a seed and scale): null when cached. */
    build: { s: number; rss_peak_mb: number } | null;
  };
  /** The first start on the dump: spawn to banner, reading it into a database included, and its peak memory. */
  first: { start_ms: number; read_s: number; rss_start_mb: number; rss_peak_mb: number; database_mb: number };
  /** Later starts, opening the database the first read. */
  later: { start_ms: Spread; rss_start_mb: number; rss_peak_mb: number };
}

/** The mock's own dump of `url`'s data, downloaded into `dir` as the service lays it out; its bytes. */
async function download(url: string, dir: string): Promise<number> {
  // The manifest waits for the dump the start writes ahead (minutes at ten million rows, past
  // fetch's five minutes for the headers): asked again until it answers.
  let manifest: Response | undefined;
  for (const started = performance.now(); !manifest;) {
    manifest = await fetch(`${url}/api/v1/exports`, { headers: auth }).catch((error: unknown) => {
      if (performance.now() - started > 1_800_000) throw error;
      return undefined;
    });
  }
  if (manifest.status !== 200) throw new Error(`the export manifest answered ${manifest.status}`);
  const text = await manifest.text();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), text);
  const day = (JSON.parse(text) as { data: { date: string; files: { name: string; url: string }[] }[] }).data[0]!;
  mkdirSync(join(dir, day.date), { recursive: true });
  let bytes = 0;
  for (const file of day.files) {
    const answer = await fetch(file.url, { headers: auth });
    if (answer.status !== 200) throw new Error(`${file.url} answered ${answer.status}`);
    const body = Buffer.from(await answer.arrayBuffer());
    writeFileSync(join(dir, day.date, file.name), body);
    bytes += body.length;
  }
  return bytes;
}

export async function dataSection(): Promise<DataFigures[]> {
  const figures: DataFigures[] = [];
  // Neither start writes a dump ahead: its minutes of a worker's CPU would weigh on the starts measured.
  const quiet = ['--no-dumps-ahead'];
  for (const scale of scales) {
    const generatedArgs = ['--seed', 'bench', '--scale', String(scale)];
    log(
      `data, scale ${scale.toLocaleString('en')}: the mock's own dump through /exports (minutes at ten million rows)`,
    );
    const source = await startMock(generatedArgs);
    const built = /built [\d,]+ rows in ([\d.]+) s/.exec(source.output());
    // Read at the banner: the build's peak, before the dump written ahead adds its own.
    const build = built ? { s: Number(built[1]), rss_peak_mb: source.peakRssMb() } : null;
    const dir = join(temp, `dump-${scale}`);
    let dumpBytes: number;
    try {
      dumpBytes = await download(source.url, dir);
    } finally {
      await source.stop();
    }
    const generatedStarts: number[] = [];
    let generated = { rss_start_mb: 0, rss_peak_mb: 0 };
    for (let i = 0; i < (smoke ? 1 : 3); i++) {
      const s = await startMock([...generatedArgs, ...quiet]);
      generatedStarts.push(s.startMs);
      generated = { rss_start_mb: s.rssMb(), rss_peak_mb: s.peakRssMb() };
      await s.stop();
    }
    // A cache of the scale's own: the database read is the one file there.
    const cache = join(temp, `data-cache-${scale}`);
    const env = { KIT_CACHE: cache };
    log(`data, scale ${scale.toLocaleString('en')}: the first start on the dump reads it into a database`);
    const firstStart = await startMock(['--data', dir, ...quiet], env, 3_600_000);
    const read = /read ([\d,]+) rows in ([\d.]+) s/.exec(firstStart.output());
    const database = readdirSync(join(cache, 'datasets')).find((f) => f.startsWith('dump-') && f.endsWith('.sqlite'))!;
    const first = {
      start_ms: firstStart.startMs,
      read_s: Number(read?.[2] ?? NaN),
      rss_start_mb: firstStart.rssMb(),
      rss_peak_mb: firstStart.peakRssMb(),
      database_mb: Math.round(statSync(join(cache, 'datasets', database)).size / 1e6),
    };
    const rows = Number((read?.[1] ?? '0').replaceAll(',', ''));
    await firstStart.stop();
    const laterStarts: number[] = [];
    let later = { rss_start_mb: 0, rss_peak_mb: 0 };
    for (let i = 0; i < (smoke ? 1 : 3); i++) {
      const s = await startMock(['--data', dir, ...quiet], env);
      laterStarts.push(s.startMs);
      later = { rss_start_mb: s.rssMb(), rss_peak_mb: s.peakRssMb() };
      await s.stop();
    }
    const figure: DataFigures = {
      scale,
      rows,
      dump_mb: Math.round(dumpBytes / 1e6),
      generated: { start_ms: spread(generatedStarts), ...generated, build },
      first,
      later: { start_ms: spread(laterStarts), ...later },
    };
    figures.push(figure);
    log(dataLine(figure));
  }
  return figures;
}

export const dataLine = (f: DataFigures): string =>
  `scale ${f.scale.toLocaleString('en')} (${f.rows.toLocaleString('en')} rows, a dump of ${f.dump_mb} MB): the ` +
  `first start on it read it in ${f.first.read_s} s (up in ${f.first.start_ms} ms, ${f.first.rss_peak_mb} MB at ` +
  `the most, a ${f.first.database_mb} MB database); later starts up in ${f.later.start_ms.median} ms, ` +
  `${f.later.rss_start_mb} MB (${f.later.rss_peak_mb} MB at the most); the generated dataset up in ` +
  `${f.generated.start_ms.median} ms, ${f.generated.rss_start_mb} MB (${f.generated.rss_peak_mb} MB at the most)` +
  (f.generated.build ? `, built in ${f.generated.build.s} s (${f.generated.build.rss_peak_mb} MB at the most)` : '');

/** Issue #39's scale targets, on a dump's later starts: under 2 s, under 400 MB. */
export function dataTargets(figures: DataFigures[]): Record<string, boolean> {
  return {
    "a dump's later starts under 2 s at every scale (its database read)": figures.every(
      (f) => f.later.start_ms.median < 2_000,
    ),
    "a dump's later starts under 400 MB resident at every scale": figures.every((f) => f.later.rss_peak_mb < 400),
  };
}

/** The block of BENCHMARKS.md, refreshed by `--only data`. */
export function refreshData(r: { figures: DataFigures[]; targets: Record<string, boolean> } & object): void {
  const range = (s: Spread) => `${s.median} ms (${s.low}-${s.high})`;
  const row = (f: DataFigures) =>
    `| ${f.scale.toLocaleString('en')} | ${f.rows.toLocaleString('en')} | ${f.dump_mb} MB | ` +
    (f.generated.build
      ? `${f.generated.build.s} s, ${f.generated.build.rss_peak_mb} MB at the most | `
      : 'kept from an earlier run | ') +
    `${range(f.generated.start_ms)}, ${f.generated.rss_start_mb} / ${f.generated.rss_peak_mb} MB | ` +
    `${f.first.read_s} s (up in ${f.first.start_ms} ms), ${f.first.rss_peak_mb} MB at the most, ` +
    `${f.first.database_mb} MB database | ${range(f.later.start_ms)}, ${f.later.rss_start_mb} / ` +
    `${f.later.rss_peak_mb} MB |`;
  replaceBlock(
    'data',
    `${measuredLine({ ...r, settings: { client: 'none', connections: 0 } }).replace(/ Client: .*$/, '')} Each \
start is from spawn to banner (the median of three, lowest-highest); resident memory after start / the most at any \
moment (the kernel's high-water mark). Every start with \`--no-dumps-ahead\`.

| scale | rows | the dump (gzip) | generated dataset: its build | generated dataset: start-up, memory | a dump's \
first start: reading it | a dump's later starts: start-up, memory |
|---|---|---|---|---|---|---|
${r.figures.map(row).join('\n')}

${targetLines(r.targets)}`,
  );
}
