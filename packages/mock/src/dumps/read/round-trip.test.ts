// @module-tag servers
/**
 * Issue #55's round trip: a Business key downloads a mock's own nightly dump through /exports,
 * following the links its manifest gives, into a folder laid out as the service serves it; a
 * second mock started with --data on that folder serves the same rows, pages, statistics and ETags
 * for every GET operation of the contract (same-answers.test-support.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { operations } from '@investor-graph/contract';
import { killAll, startWith, stop } from '../../cli/cli-process.test-support.ts';
import { compareMocks, notCompared } from './same-answers.test-support.ts';

const temp = await mkdtemp(join(tmpdir(), 'ig-dump-round-trip-'));
afterAll(async () => {
  killAll();
  await rm(temp, { recursive: true, force: true });
});

const env = { KIT_CACHE: join(temp, 'cache') };
const now = '2026-11-20T04:00:00Z';
// The same clock and cursor secret: the envelope's as_of and every next_cursor can then be compared too.
const common = ['--now', now, '--frozen', '--cursor-secret', 'round-trip-cursor-secret-0123456789', '--no-rate-limit'];
const key = 'igk_business_roundtriproundtriproundtr';

/** A Business key of our choosing, made through the control API. */
async function businessKey(url: string): Promise<void> {
  const made = await fetch(`${url}/__control/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'business', key }),
  });
  expect(made.status).toBe(201);
}

/** The dump as the service serves it: manifest.json (the manifest's answer) and each file under <date>/<name>. */
async function download(url: string, dir: string): Promise<void> {
  const auth = { authorization: `Bearer ${key}` };
  const manifest = await fetch(`${url}/api/v1/exports`, { headers: auth });
  expect(manifest.status).toBe(200);
  const text = await manifest.text();
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'manifest.json'), text);
  for (const day of (JSON.parse(text) as { data: { date: string; files: { name: string; url: string }[] }[] }).data) {
    await mkdir(join(dir, day.date), { recursive: true });
    for (const file of day.files) {
      const answer = await fetch(file.url, { headers: auth });
      expect(answer.status, file.url).toBe(200);
      await writeFile(join(dir, day.date, file.name), Buffer.from(await answer.arrayBuffer()));
    }
  }
}

test(
  'a mock started on the dump another serves through /exports serves the same rows, pages, statistics and ' +
    'ETags for every GET operation of the contract',
  async () => {
    const first = await startWith(env, '--seed', 'round-trip', '--scale', '2000', ...common);
    await businessKey(first.url);
    const dir = join(temp, 'dump');
    await download(first.url, dir);
    const second = await startWith(env, '--data', dir, ...common);
    expect(second.output()).toContain('reading the nightly dump of 2026-11-20 once');
    // The kit's own dump is all the contract describes: nothing to report.
    expect(second.output()).not.toContain('does not describe');
    await businessKey(second.url);

    const { differences, calls } = await compareMocks(first.url, second.url, key, '2026-11-20T04:00:01Z');
    expect(differences).toEqual([]);
    // Every GET operation of the contract was asked, the records and nested lists of every parent.
    const gets = operations.filter((o) => o.method === 'GET' && !(o.operationId in notCompared));
    for (const op of gets) expect(calls[op.operationId] ?? 0, op.operationId).toBeGreaterThan(0);
    expect(calls.getFirm).toBeGreaterThan(10);
    expect(calls.listCompanyInvestors).toBeGreaterThan(50);
    // Both days the manifest lists, each of its nine files.
    expect(calls.getExportFile).toBe(18);
    await Promise.all([stop(first.child), stop(second.child)]);

    // A later start opens the database the first read, at once.
    const again = await startWith(env, '--data', dir, ...common);
    expect(again.output()).not.toContain('reading the nightly dump');
    await stop(again.child);
  },
  120_000,
);
