/**
 * The code one keyed `GET /api/v1/firms?limit=2` runs in the mock, as a newcomer follows it (#67):
 * the kit's files and functions that V8's precise coverage counts for that one call, after warm-up
 * (so what runs once at start-up is not counted). The mock runs in this process, on the embedded
 * dataset, with its defaults (metrics, the request log, the journal) and an Enterprise key.
 *   node src/bench.ts --only path [--out FILE]
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative, resolve, sep } from 'node:path';
import { startMock } from '@investor-graph/mock/node';

const root = resolve(import.meta.dirname, '../../..');
const target = '/api/v1/firms?limit=2';

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/** The kit's own files (not its dependencies) and the functions of each that ran since the last take. */
function ranFiles({ result }: Coverage): Map<string, string[]> {
  const files = new Map<string, string[]>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const path = relative(root, fileURLToPath(script.url)).split(sep).join('/');
    // The kit's packages and its dataset, not their dependencies nor this measuring code.
    if (!/^(packages|dataset)\//.test(path) || /node_modules\/|^packages\/bench\//.test(path)) continue;
    const ran = script.functions.filter((f) => f.ranges[0]!.count > 0).map((f) => f.functionName || '(anonymous)');
    if (ran.length) files.set(path, ran);
  }
  return files;
}

/** One keyed GET with `key` (an Enterprise key's text) after `warmups` calls, and the code it ran. */
export async function pathSection(
  key: string,
  warmups = 20,
): Promise<{ status: number; files: Record<string, string[]> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const mock = await startMock({ port: 0, keys: [{ plan: 'enterprise', key }], log: () => {} });
  try {
    const get = async () => {
      const answer = await fetch(`${mock.url}${target}`, { headers: { authorization: `Bearer ${key}` } });
      await answer.arrayBuffer();
      return answer.status;
    };
    // Warm-up within the plan's rate, then a pause so the bucket is full again.
    for (let i = 0; i < warmups; i++) {
      await get();
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1_000));
    await session.post('Profiler.takePreciseCoverage'); // with callCount, taking resets the counts
    const status = await get();
    const files = ranFiles(await session.post('Profiler.takePreciseCoverage'));
    return { status, files: Object.fromEntries([...files].sort(([a], [b]) => a.localeCompare(b))) };
  } finally {
    await mock.close();
    session.disconnect();
  }
}

export async function pathAlone(): Promise<void> {
  // The bench's flags and folder, read only when the bench runs it (its test gives its own key).
  const { key, log, measuredOn, smoke, writeResults } = await import('./setup.ts');
  const { status, files } = await pathSection(key, smoke ? 3 : 20);
  const byPackage = new Map<string, number>();
  for (const file of Object.keys(files)) {
    const name = file.split('/').slice(0, 2).join('/');
    byPackage.set(name, (byPackage.get(name) ?? 0) + 1);
  }
  const functions = Object.values(files).flat().length;
  writeResults({ ...measuredOn(), target, status, files_count: Object.keys(files).length, functions, files });
  log(`one keyed GET ${target} (${status}): ${Object.keys(files).length} files of the kit, ${functions} functions`);
  for (const [name, n] of byPackage) log(`  ${name}: ${n} files`);
  for (const [file, fns] of Object.entries(files)) log(`  ${file}: ${fns.join(', ')}`);
}
