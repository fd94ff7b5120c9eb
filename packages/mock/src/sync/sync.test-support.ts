/**
 * What the sync's tests share: `investor-graph-dataset sync` run as a process (the bin of the
 * installed @investor-graph/dataset-tools, a dependency of the mock's), a source mock of a generated
 * dataset and a mock on the folder a sync wrote, everything each serves read alike, and a folder read
 * whole. The sync's round trips run here because they need both packages and the mock already
 * depends on the dataset tools (the dataset tools depending on the mock too would be a cycle).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { operations, parameterEnum } from '@investor-graph/contract';
import { startWith } from '../cli/cli-process.test-support.ts';

const manifest = createRequire(import.meta.url).resolve('@investor-graph/dataset-tools/package.json');
const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
export const datasetBin = join(dirname(manifest), bin['investor-graph-dataset']!);

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `investor-graph-dataset sync ARGS` with the key in INVESTOR_GRAPH_KEY (or `input` on stdin), as in CI. */
export function sync(
  args: string[],
  key: string | null,
  options: { input?: string; env?: NodeJS.ProcessEnv; started?: (child: ChildProcess) => void } = {},
): Promise<Ran> {
  const { INVESTOR_GRAPH_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [datasetBin, 'sync', ...args], {
    env: { ...env, CI: 'true', ...(key === null ? {} : { INVESTOR_GRAPH_KEY: key }), ...options.env },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  options.started?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

export const cursorSecret = 'sync-tests-cursor-secret';

/**
 * A mock of the generated dataset `seed` (small), or of a folder (`--data`), frozen, cursors signed
 * alike (so that two mocks of the same data serve the same cursors), with `keys` (PLAN=KEY).
 */
export function startMock(cache: string, data: { seed: string } | { folder: string }, ...args: string[]) {
  const source = 'seed' in data ? ['--seed', data.seed, '--scale', '500'] : ['--data', data.folder];
  return startWith({ KIT_CACHE: cache }, ...source, '--frozen', '--cursor-secret', cursorSecret, ...args);
}

/** Operations a copy is not held to, with why. */
export const notCompared: Record<string, string> = {
  getAccount: "the key's own usage, not the data",
  getOpenApiDocument: 'the contract, naming each server by its own address',
  getExportManifest: 'nightly dumps: files of the rows compared here, stamped with when each was written',
  getExportFile: 'nightly dumps, as the manifest',
  createTrialKey: 'a new key, not the data',
};

/**
 * Every answer of every data operation of the contract (but those above) as `url` serves it to
 * `key`, without `usage`: each list walked page by page at `limit`, each firm's and company's
 * nested lists, each record, each statistic, the whole changes feed with its rows.
 */
export async function served(url: string, key: string, limit = 50): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  const get = async (path: string) => {
    const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await answer.json()) as Record<string, unknown>;
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(body)}`);
    const { usage: _usage, ...rest } = body;
    answers.set(path, rest);
    return rest as { data: Record<string, unknown>[]; next_cursor: string | null };
  };
  const walk = async (path: string) => {
    const rows: Record<string, unknown>[] = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      rows.push(...page.data);
      cursor = page.next_cursor;
    }
    return rows;
  };
  const keys: Record<string, string[]> = {};
  for (const op of operations) {
    if (op.method !== 'GET' || op.operationId in notCompared || op.path.includes('{')) continue;
    if (op.operationId === 'listChanges') await walk(`${op.path}?since=1970-01-01T00:00:00Z&include=rows`);
    else keys[op.path] = (await walk(op.path)).map((r) => (r.slug ?? r.id) as string);
  }
  for (const op of operations) {
    if (op.method !== 'GET' || op.operationId in notCompared || !op.path.includes('{')) continue;
    const [parent, name] = /^(\/api\/v1\/[a-z-]+)\/\{(\w+)\}/.exec(op.path)!.slice(1) as [string, string];
    const values = name === 'name' ? parameterEnum(op.operationId, 'name') : keys[parent]!;
    for (const value of values) {
      const path = op.path.replace(`{${name}}`, value);
      if (op.query.includes('cursor')) await walk(path);
      else await get(path);
    }
  }
  return answers;
}

/** Every file under `dir` (hidden ones too) by its path, with its bytes as text. */
export function folder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[relative(dir, path)] = readFileSync(path, 'latin1');
    }
  return files;
}

/** POSTs JSON to a control endpoint of the mock at `url`. */
export async function control(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${url}/__control${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await answer.json()) as Record<string, unknown>;
}
