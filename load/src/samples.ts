/**
 * k6's raw samples as `--out json=FILE` writes them (gzip-compressed when FILE ends in .gz): one JSON
 * object a line, a "Metric" line the first time a metric is seen, then one "Point" line per sample.
 * Read as a stream, line by line, so that a file of millions of samples never sits in memory whole.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

export interface MetricDefinition {
  name: string;
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains: 'default' | 'time' | 'data';
}

export interface Sample {
  metric: string;
  /** Milliseconds since the epoch. */
  time: number;
  value: number;
  tags: Record<string, string>;
}

/** A samples file that cannot be read as k6 wrote it; the message names the file and the line. */
export class SamplesError extends Error {}

export interface SampleVisitor {
  metric?(definition: MetricDefinition): void;
  /** Returns false to stop reading (the rest of the file is left unread). */
  sample(sample: Sample): boolean | void;
}

/** Reads `file`, calling the visitor for each metric definition and each sample, in file order. */
export async function readSamples(file: string, visitor: SampleVisitor): Promise<void> {
  const gzip = await startsWithGzipMagic(file);
  const raw = createReadStream(file);
  const stream: Readable = gzip ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => stream.destroy(error));
  // Whole characters only: a check's name may hold one that a chunk boundary would split.
  stream.setEncoding('utf8');
  let rest = '';
  let line = 0;
  const visit = (text: string): boolean => {
    line++;
    if (!text) return true;
    let entry: { type?: string; metric?: string; data?: Record<string, unknown> };
    try {
      entry = JSON.parse(text) as typeof entry;
    } catch {
      throw new SamplesError(`${file}, line ${line}: not a JSON line of k6's --out json (${text.slice(0, 60)}...)`);
    }
    const data = entry.data ?? {};
    if (entry.type === 'Point') {
      const time = Date.parse(data.time as string);
      if (typeof entry.metric !== 'string' || typeof data.value !== 'number' || Number.isNaN(time))
        throw new SamplesError(`${file}, line ${line}: a Point without metric, time or value`);
      return (
        visitor.sample({
          metric: entry.metric,
          time,
          value: data.value,
          tags: (data.tags as Record<string, string> | null) ?? {},
        }) !== false
      );
    }
    if (entry.type === 'Metric')
      visitor.metric?.({
        name: data.name as string,
        type: data.type as MetricDefinition['type'],
        contains: data.contains as MetricDefinition['contains'],
      });
    return true;
  };
  try {
    for await (const chunk of stream) {
      const text = rest + (chunk as string);
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        if (!visit(text.slice(start, end))) return;
        start = end + 1;
      }
      rest = text.slice(start);
    }
    if (rest && !visit(rest)) return;
  } catch (error) {
    if (error instanceof SamplesError) throw error;
    const reason =
      (error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' || /unexpected end of file/.test((error as Error).message)
        ? 'the gzip stream ends early (k6 stopped before it finished writing?)'
        : (error as Error).message;
    throw new SamplesError(`${file}: ${reason}`);
  } finally {
    raw.destroy();
    stream.destroy();
  }
}

async function startsWithGzipMagic(file: string): Promise<boolean> {
  const stream = createReadStream(file, { start: 0, end: 1 });
  const bytes: Buffer[] = [];
  try {
    for await (const chunk of stream) bytes.push(chunk as Buffer);
  } catch (error) {
    throw new SamplesError(`${file}: ${(error as Error).message}`);
  }
  const head = Buffer.concat(bytes);
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}
