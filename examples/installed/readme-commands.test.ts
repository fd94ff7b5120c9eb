import { expect, test } from 'vitest';
import { root } from '../readme.ts';
import { commandsOf, readmeCommands, unknownFlags } from './readme-commands.ts';

const block = (...lines: string[]) => ['```sh', ...lines, '```'].join('\n');

test("a command line's flags are the command's own: those after a lone -- go on to k6", () => {
  const [line] = commandsOf('r.md', block('npx --no -- investor-graph-load run team --part 1/2 -- -e DURATION=2m'));
  expect(line).toMatchObject({ command: 'investor-graph-load', subcommand: 'run', flags: ['--part'] });
});

test('a line continued with a backslash is one command line, and a flag with = is its name', () => {
  const [line] = commandsOf(
    'r.md',
    block('KEY=1 npx --no -- investor-graph-contract-tests --base-url=x \\', '  --plan team'),
  );
  expect(line).toMatchObject({ subcommand: '', flags: ['--base-url', '--plan'] });
});

test('prose outside code blocks and comments inside them are not command lines', () => {
  const text = [
    'Run `npx --no -- investor-graph-mock --nope`.',
    block('# npx --no -- investor-graph-mock --nope'),
  ].join('\n');
  expect(commandsOf('r.md', text)).toEqual([]);
});

test('a flag its --help does not name is reported, one the help names is not', () => {
  const [line] = commandsOf('r.md', block('node_modules/.bin/investor-graph-mock --port 1 --porty 2 &'));
  const help = 'usage: investor-graph-mock [options]\n  --port N   the port\n  -p N       the same';
  expect(unknownFlags(line!, help)).toEqual([
    expect.stringMatching(/passes --porty, which investor-graph-mock --help/),
  ]);
});

test("the kit's READMEs hold command lines of every command", () => {
  const commands = new Set(readmeCommands(root).map((c) => c.command));
  expect([...commands].sort()).toEqual([
    'investor-graph-check-api',
    'investor-graph-contract-tests',
    'investor-graph-dataset',
    'investor-graph-load',
    'investor-graph-mcp',
    'investor-graph-mock',
  ]);
});
