// @module-tag servers
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { helpCommand } from './index.ts';

/** A command of two flags, run as its own process: readFlags exits. */
function runTool(...args: string[]) {
  const tool = `import { readFlags } from ${JSON.stringify(join(import.meta.dirname, 'index.ts'))};
    const { fail } = readFlags(\
'tool', 'usage: investor-graph-tool [options]\\n  --budget-calls N  calls\\n  --seed N  seed', process.argv.slice(1),\
 { 'budget-calls': { type: 'string' }, seed: { type: 'string' } });
    fail('--seed must be a\\nwhole number');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', tool, '--', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

test('a misspelt flag is one line naming the flag meant and pointing at --help, and exit 2', () => {
  const run = runTool('--bugdet', '5');
  expect(run.status).toBe(2);
  expect(run.stderr).toBe(
    "[tool] Unknown option '--bugdet'. Did you mean --budget-calls? (see investor-graph-tool --help)\n",
  );
  const far = runTool('--colour');
  expect([far.status, far.stderr]).toEqual([2, "[tool] Unknown option '--colour' (see investor-graph-tool --help)\n"]);
});

test("a tool's own usage error is one line too, a message of several lines joined into it", () => {
  const run = runTool('--seed', 'x');
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('[tool] --seed must be a whole number (see investor-graph-tool --help)\n');
});

test('the pointer names the command as its usage shows it, a subcommand included', () => {
  const load =
    'usage: investor-graph-load run PLAN [--part I/N]\n       investor-graph-load merge DIR... [--out ' +
    'DIR]\n\nrun     k6 on PLAN';
  expect(helpCommand('investor-graph-load merge', load)).toBe('investor-graph-load merge');
  expect(helpCommand('investor-graph-load run', load)).toBe('investor-graph-load run');
  expect(
    helpCommand(
      'investor-graph proxy',
      'usage: investor-graph-mock proxy URL [options]     (or --upstream URL)\n  URL, --upstream URL the ' +
        'live service\n  -p, --port N',
    ),
  ).toBe('investor-graph-mock proxy');
  expect(helpCommand('investor-graph mock', 'usage: investor-graph-mock [serve] [options]\n  -p, --port N')).toBe(
    'investor-graph-mock',
  );
  expect(helpCommand('dataset', 'usage: investor-graph-dataset [--seed S]\n  --seed S')).toBe('investor-graph-dataset');
  expect(helpCommand('my-tool', 'my-tool takes no flags')).toBe('my-tool');
});

test(`a stray argument that may be a key is said to be there with its length, never shown; a short word is \
shown`, () => {
  const key = 'igk_team_qSzopJ4daGBI9QyQJ7jnIJ4LajkBK8Nd';
  const run = runTool('--seed', '1', key);
  expect([run.status, run.stderr]).toEqual([
    2,
    `[tool] unexpected argument of ${key.length} characters (not shown: it may be a key) (see ` +
      `investor-graph-tool --help)\n`,
  ]);
  expect(runTool('--seed', '1', 'extra').stderr).toBe(
    "[tool] unexpected argument 'extra' (see investor-graph-tool --help)\n",
  );
});
